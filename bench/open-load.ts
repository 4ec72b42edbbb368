/**
 * Open-loop load at a fixed mean arrival rate, for latency at a rate below the ceiling: request i
 * leaves at its scheduled time whatever the answers before it did, and its latency counts from
 * that time, so a slow answer is never hidden by the sends it would have delayed (coordinated
 * omission). `wrk` keeps a fixed number of requests in flight instead, which measures throughput.
 *
 * Raw keep-alive sockets and a small response reader instead of `node:http`, so the generator's
 * own CPU per request stays small: idle sockets are reused oldest first, a new one opens when all
 * are busy (up to `maxSockets`), then requests are pipelined. Sends keep to their schedule within
 * about 0.2 ms: the generator naps on a futex between them rather than on Node's 1 ms timers.
 * Bounded: answers still missing `drainMs` after the last send count as errors.
 */
import { connect, Socket } from 'node:net';

export type OpenLoadRequest = { method: string; path: string; headers: Record<string, string>; body?: string };
export type LatencySummary = { p50: number; p90: number; p99: number; max: number };

export interface OpenLoadOptions {
  url: string;
  /** Mean arrivals per second. */
  rate: number;
  seconds: number;
  /** Exponential gaps (a Poisson process, what a fleet of independent devices sends) or a fixed gap. */
  arrivals?: 'poisson' | 'uniform';
  /** Keep-alive sockets the client may open (default 256). */
  maxSockets?: number;
  request: (i: number) => OpenLoadRequest;
  /** Statuses that count as answered (default 2xx); the rest count in `notOk`. */
  ok?: (status: number) => boolean;
  /** How long answers may still arrive after the last scheduled send (default 30 s). */
  drainMs?: number;
}

export interface OpenLoadResult {
  sent: number;
  ok: number;
  notOk: number;
  /** Connection errors and answers that never came. */
  errors: number;
  achievedRate: number;
  /** From each request's scheduled send to its complete answer (ms), answered requests only. */
  latency: LatencySummary;
  /** How late the generator itself sent requests (ms): part of `latency`, not the server's. */
  sendLag: LatencySummary;
}

/** A socket, the request indexes written on it and not yet answered (oldest first), and unread bytes. */
type Conn = { socket: Socket; pending: number[]; buffered: Buffer | null; closed: boolean };

/** The longest the generator sleeps between looks at its schedule and its sockets (ms). */
const NAP_MS = 0.2;
const nap = new Int32Array(new SharedArrayBuffer(4));
const HEAD_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

/** Mean-rate arrival offsets (ms from the start); deterministic (xorshift) so runs compare. */
export function arrivalSchedule(rate: number, seconds: number, arrivals: 'poisson' | 'uniform' = 'poisson'): Float64Array {
  const total = Math.round(rate * seconds);
  const schedule = new Float64Array(total);
  let seed = 0x2545f491;
  const uniform = () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) + 1) / 4294967297;
  };
  let at = 0;
  for (let i = 0; i < total; i++) {
    schedule[i] = at;
    at += arrivals === 'uniform' ? 1000 / rate : (-Math.log(uniform()) * 1000) / rate;
  }
  return schedule;
}

function summarize(values: Float64Array): LatencySummary {
  if (values.length === 0) return { p50: 0, p90: 0, p99: 0, max: 0 };
  const sorted = values.slice().sort();
  const round = (x: number) => Math.round(x * 100) / 100;
  const q = (p: number) => round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]);
  return { p50: q(0.5), p90: q(0.9), p99: q(0.99), max: round(sorted[sorted.length - 1]) };
}

/**
 * The length of the first complete answer in `buf` and its status, or null while it is incomplete.
 * Answers carry `content-length` or are chunked without trailers (what our servers send).
 */
export function readAnswer(buf: Buffer): { length: number; status: number; close: boolean } | null {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd).toLowerCase();
  const status = Number(head.slice(9, 12));
  const close = /\r\nconnection:\s*close/.test(head);
  const declared = /\r\ncontent-length:\s*(\d+)/.exec(head);
  let length: number;
  if (declared) length = headEnd + 4 + Number(declared[1]);
  else if (/\r\ntransfer-encoding:[^\r]*chunked/.test(head)) {
    const end = buf.indexOf(CHUNKED_END, headEnd + 2);
    if (end < 0) return null;
    length = end + CHUNKED_END.length;
  } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) length = headEnd + 4;
  else throw new Error(`answer ${status} without content-length or chunked body: the open-load reader cannot frame it`);
  return buf.length >= length ? { length, status, close } : null;
}

export function openLoad(opts: OpenLoadOptions): Promise<OpenLoadResult> {
  const target = new URL(opts.url);
  const host = target.host;
  const port = Number(target.port || 80);
  const maxSockets = opts.maxSockets ?? 256;
  const isOk = opts.ok ?? ((s: number) => s >= 200 && s < 300);
  const schedule = arrivalSchedule(opts.rate, opts.seconds, opts.arrivals);
  const total = schedule.length;
  const latencies = new Float64Array(total);
  const lags = new Float64Array(total);
  const conns: Conn[] = [];
  const idle: Conn[] = [];
  let ok = 0;
  let notOk = 0;
  let errors = 0;
  let done = 0;
  let next = 0;
  let spread = 0;

  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let deadline: NodeJS.Timeout | undefined;
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(deadline);
      for (const c of conns) c.socket.destroy();
      const achievedRate = Math.round(ok / ((performance.now() - t0) / 1000));
      resolve({ sent: next, ok, notOk, errors, achievedRate, latency: summarize(latencies.subarray(0, ok)), sendLag: summarize(lags.subarray(0, next)) });
    };
    const settle = (i: number, status: number) => {
      if (status === 0) errors++;
      else if (isOk(status)) latencies[ok++] = performance.now() - (t0 + schedule[i]);
      else notOk++;
      if (++done === total) finish();
    };
    const drop = (c: Conn) => {
      if (c.closed) return;
      c.closed = true;
      conns.splice(conns.indexOf(c), 1);
      const at = idle.indexOf(c);
      if (at >= 0) idle.splice(at, 1);
      for (const i of c.pending.splice(0)) settle(i, 0);
    };
    const open = (): Conn => {
      const c: Conn = { socket: connect({ host: target.hostname, port }), pending: [], buffered: null, closed: false };
      c.socket.setNoDelay(true);
      c.socket.on('data', (chunk: Buffer) => {
        if (finished) return;
        let buf = c.buffered ? Buffer.concat([c.buffered, chunk]) : chunk;
        for (;;) {
          let answer: ReturnType<typeof readAnswer>;
          try {
            answer = readAnswer(buf);
          } catch (err) {
            finished = true;
            for (const other of conns) other.socket.destroy();
            return reject(err);
          }
          if (!answer) break;
          // An answer nobody asked for puts the connection out of step: it is closed like one that asked to be.
          const i = c.pending.shift();
          if (i !== undefined) settle(i, answer.status);
          buf = buf.subarray(answer.length);
          if (i === undefined || answer.close) {
            c.socket.destroy();
            drop(c);
            return;
          }
        }
        c.buffered = buf.length ? buf : null;
        if (c.pending.length === 0) idle.push(c);
      });
      c.socket.on('error', () => drop(c));
      c.socket.on('close', () => drop(c));
      conns.push(c);
      return c;
    };
    const send = (i: number) => {
      const r = opts.request(i);
      const body = r.body ?? '';
      let head = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${host}\r\n`;
      for (const name in r.headers) head += `${name}: ${r.headers[name]}\r\n`;
      if (body || r.method !== 'GET') head += `content-length: ${Buffer.byteLength(body)}\r\n`;
      // Oldest idle socket first; else a new one; else pipeline on the sockets in turn.
      const c = idle.shift() ?? (conns.length < maxSockets ? open() : conns[spread++ % conns.length]);
      c.pending.push(i);
      c.socket.write(`${head}\r\n${body}`);
      lags[i] = performance.now() - (t0 + schedule[i]);
    };
    const tick = () => {
      if (finished) return;
      const now = performance.now() - t0;
      while (next < total && schedule[next] <= now) send(next++);
      if (next >= total) {
        deadline = setTimeout(() => {
          for (const c of [...conns]) {
            c.socket.destroy();
            drop(c);
          }
          finish();
        }, opts.drainMs ?? 30_000);
        return;
      }
      const wait = schedule[next] - (performance.now() - t0);
      if (wait > 2) setTimeout(tick, wait - 1);
      else {
        // Node's timers have 1 ms steps (0.5 ms late on average, often 2): nap at most NAP_MS
        // on a futex instead, then let the loop read the answers that came meanwhile.
        if (wait > 0) Atomics.wait(nap, 0, 0, Math.min(wait, NAP_MS));
        setImmediate(tick);
      }
    };
    if (total === 0) finish();
    else tick();
  });
}

/** Visits of the redirect benches: GETs of `paths` in turn at `rate`, a 302 counting as answered; `headers` per visit. */
export function openLoadRedirects(o: { url: string; paths: string[]; headers: (i: number) => Record<string, string>; rate: number; seconds: number; maxSockets: number }): Promise<OpenLoadResult> {
  const request = (i: number) => ({ method: 'GET', path: o.paths[i % o.paths.length], headers: o.headers(i) });
  return openLoad({ url: o.url, rate: o.rate, seconds: o.seconds, maxSockets: o.maxSockets, ok: (status) => status === 302, request });
}
