/**
 * wrk (Debian's `wrk` package: `apt-get install wrk`) as a closed-loop load generator: the tool
 * issue #19's figures were first taken with. It is C, so on a 2-core machine it leaves the
 * measured processes most of the CPU that autocannon (Node) takes for itself (40-59 µs per
 * request against wrk's few). A Lua script rotates the paths, sets the headers, counts the
 * answers that are not the expected status in each thread, and prints one JSON line at the end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WrkOptions {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** wrk threads (default 1: one event loop handles far more than these servers answer). */
  threads?: number;
  /** The status every answer must have (default 302). */
  status?: number;
}

export interface WrkResult {
  /** Complete answers (wrk does not count the ones in flight when its time is up). */
  requests: number;
  /** Answers with another status than `status`. */
  unexpected: number;
  /** Connect, read, write and timeout errors. */
  errors: number;
  seconds: number;
  /** Milliseconds, from each request's write on its connection (closed loop). */
  latency: { p50: number; p90: number; p99: number; max: number };
}

const lua = (o: WrkOptions) => `
local paths = {${o.paths.map((p) => JSON.stringify(p)).join(',')}}
${Object.entries(o.headers)
  .map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`)
  .join('\n')}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) i = 0; unexpected = 0 end
function request() i = i + 1; return wrk.format("GET", paths[(i % #paths) + 1]) end
function response(status, headers, body) if status ~= ${o.status ?? 302} then unexpected = unexpected + 1 end end
function done(summary, latency, requests)
  local n = 0
  for _, t in ipairs(threads) do n = n + t:get("unexpected") end
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"unexpected":%d,"errors":%d,"micros":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d}\\n',
    summary.requests, n, e.connect + e.read + e.write + e.timeout, summary.duration,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
`;

export function runWrk(o: WrkOptions): Promise<WrkResult> {
  const dir = mkdtempSync(join(tmpdir(), 'dl-wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, lua(o));
  const args = ['-t', String(o.threads ?? 1), '-c', String(o.connections), '-d', `${o.seconds}s`, '--timeout', '10s', '-s', script, o.url];
  return new Promise<WrkResult>((resolve, reject) => {
    execFile('wrk', args, { timeout: (o.seconds + 30) * 1000 }, (err, stdout, stderr) => {
      rmSync(dir, { recursive: true, force: true });
      if (err) return reject(new Error(`wrk failed (${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'not installed: apt-get install wrk' : err.message}): ${stderr}`));
      const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
      if (!line) return reject(new Error(`wrk printed no summary: ${stdout}`));
      const r = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
      const ms = (micros: number) => Math.round(micros / 10) / 100;
      resolve({
        requests: r.requests,
        unexpected: r.unexpected,
        errors: r.errors,
        seconds: r.micros / 1e6,
        latency: { p50: ms(r.p50), p90: ms(r.p90), p99: ms(r.p99), max: ms(r.max) },
      });
    });
  });
}

/** Whether `wrk` is on the PATH. */
export function wrkInstalled(): Promise<boolean> {
  return new Promise((resolve) => execFile('wrk', ['--version'], (err) => resolve(!err || (err as NodeJS.ErrnoException).code !== 'ENOENT')));
}
