import { LookupAddress, lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { stripUnstorable } from '@dl/platform/db';
import { AllowList, parseIp, refusalReason } from './address-guard';
import { isHttpScheme, parseUrl } from '@dl/platform/validation';

/** Bytes of a receiver's answer read at most; the rest is dropped (connection destroyed). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Bytes of the answer kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface AttemptResult {
  /** A 2xx answer. */
  ok: boolean;
  /** 410 Gone: the receiver asks us to stop (the webhook is disabled). */
  gone: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export class DestinationRefusedError extends Error {
  readonly code = 'EDESTREFUSED';
  constructor(reason: string) {
    super(`Destination refused: ${reason}`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that only ever hands the socket public addresses (or allow-listed ones): the
 * check happens on the address actually connected to, so DNS rebinding cannot slip through.
 */
export function guardedLookup(allow: AllowList): LookupFunction {
  const fn = (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback) => {
    dnsLookup(hostname, { family: options.family as number | undefined, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const allowed = addresses.filter((a) => !refusalReason(a.address, allow));
      if (!allowed.length) {
        const reason = addresses.length ? refusalReason(addresses[0].address, allow)! : `${hostname} has no address`;
        return callback(new DestinationRefusedError(`${hostname} resolves to ${reason.replace(/^\S+ is /, '')}`), []);
      }
      if (options.all) return callback(null, allowed);
      return callback(null, allowed[0].address, allowed[0].family);
    });
  };
  return fn as unknown as LookupFunction;
}

/**
 * Posts signed webhook bodies: SSRF guard at connect time, no redirects followed, a hard
 * per-attempt timeout (connect + answer + body) and a capped response read.
 */
export class WebhookHttpClient {
  private readonly lookup: LookupFunction;
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(
    private readonly allow: AllowList,
    private readonly timeoutMs: number,
  ) {
    this.lookup = guardedLookup(allow);
    const agentOptions = { keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 256, timeout: timeoutMs, lookup: this.lookup };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
  }

  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  post(rawUrl: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const fail = (error: string, statusCode: number | null = null, excerpt: string | null = null): AttemptResult => ({
      ok: false,
      gone: false,
      statusCode,
      durationMs: elapsed(),
      error,
      responseExcerpt: excerpt,
    });

    const url = parseUrl(rawUrl);
    if (!url) return Promise.resolve(fail('Invalid URL'));
    if (!isHttpScheme(url)) return Promise.resolve(fail('Unsupported protocol'));
    // An IP literal is connected to without a lookup: check it here (the URL parser has already
    // normalised 0x7f000001, 2130706433 and 0177.0.0.1 to 127.0.0.1).
    if (parseIp(url.hostname)) {
      const reason = refusalReason(url.hostname, this.allow);
      if (reason) return Promise.resolve(fail(new DestinationRefusedError(reason).message));
    }

    const payload = Buffer.from(body);
    const isHttps = url.protocol === 'https:';
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      const finish = (result: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const req = (isHttps ? https : http).request(
        url,
        {
          method: 'POST',
          agent: isHttps ? this.httpsAgent : this.httpAgent,
          lookup: this.lookup,
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'user-agent': 'Deeplink-Webhooks/1.0',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const status = res.statusCode ?? 0;
          const conclude = (truncated: boolean) => {
            // A receiver's answer is stored: NUL and lone surrogates stripped (decisions §14).
            const excerpt = stripUnstorable(Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8')) || null;
            if (status >= 200 && status < 300) {
              return finish({ ok: true, gone: false, statusCode: status, durationMs: elapsed(), error: null, responseExcerpt: excerpt });
            }
            let error = `Receiver answered ${status}`;
            if (status >= 300 && status < 400) {
              const location = res.headers.location ? ` to ${String(res.headers.location).slice(0, 200)}` : '';
              error = `Redirect (${status}${location}) not followed`;
            }
            if (truncated) error += `; body truncated at ${MAX_RESPONSE_BYTES} bytes`;
            finish({ ...fail(error, status, excerpt), gone: status === 410 });
          };
          res.on('data', (chunk: Buffer) => {
            if (settled) return;
            const room = MAX_RESPONSE_BYTES - size;
            chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
            size += Math.min(chunk.length, room);
            if (size >= MAX_RESPONSE_BYTES) {
              conclude(true);
              res.destroy();
            }
          });
          res.on('end', () => conclude(false));
          res.on('error', (err) => finish(fail(`Response error: ${err.message}`, status)));
          res.on('close', () => {
            if (!res.complete) finish(fail('Connection closed before the answer was complete', status));
          });
        },
      );
      const timer = setTimeout(() => {
        finish(fail(`Timed out after ${this.timeoutMs} ms`));
        req.destroy();
      }, this.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (err instanceof DestinationRefusedError) return finish(fail(err.message));
        const code = err.code ? ` (${err.code})` : '';
        finish(fail(`${err.message === 'socket hang up' ? 'Connection closed by the receiver' : err.message}${code}`));
      });
      req.end(payload);
    });
  }
}
