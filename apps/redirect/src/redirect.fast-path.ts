import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MetricsService } from '@dl/platform/observability';
import { Answer, buildAnswer, RedirectService } from '@dl/redirect';

/** `GET|HEAD /<code>[?query]` with a code that needs no decoding: everything else goes to Fastify. */
const FAST_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const ROUTE = '/:shortCode';
/** Static routes of the app (reserved words, never short codes): Fastify serves them. */
const FASTIFY_OWNED = new Set(['health', 'metrics']);

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * More than one Host field line (RFC 9112 §3.2: the server MUST answer 400). Node refuses a
 * missing Host itself but keeps the first of several, so a proxy that routed by another one
 * would disagree with the edge about which host (and so which domain's link) was asked for.
 */
export function hasSeveralHosts(rawHeaders: string[]): boolean {
  let seen = false;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    if (name.length !== 4 || name.toLowerCase() !== 'host') continue;
    if (seen) return true;
    seen = true;
  }
  return false;
}

/**
 * The visit path on the bare `node:http` request event, in front of Fastify: a cached
 * redirect costs a regex, a Map lookup, the decision and one write — no router, no hooks,
 * no per-request logger. It keeps what the shared hooks give every response (the
 * `x-request-id` header, `http_requests_total` and the latency histogram) and answers
 * through the same `RedirectService.resolve` + `buildAnswer` as the Fastify route, which
 * still serves every request this one does not take (percent-encoded codes, trailing
 * slashes, other methods and paths).
 */
export function installRedirectFastPath(app: NestFastifyApplication): void {
  const server = app.getHttpServer() as Server;
  const fastify = server.listeners('request') as RequestListener[];
  if (fastify.length !== 1) throw new Error('redirect fast path: expected exactly one request listener (Fastify)');
  const edge = app.get(RedirectService);
  const metrics = app.get(MetricsService);
  const logger = new Logger('RedirectFastPath');
  const unavailable = buildAnswer({ kind: 'unavailable' });

  const plain500 = (res: ServerResponse, id: string) => {
    const body = 'Internal Server Error';
    res.writeHead(500, ['content-type', 'text/plain; charset=utf-8', 'cache-control', 'no-store', 'x-request-id', id, 'content-length', String(body.length)]);
    res.end(body);
  };

  const writeAnswer = (req: IncomingMessage, res: ServerResponse, answer: Answer, id: string): number => {
    // Headers as one flat list: no merged object per request.
    const head: string[] = [];
    for (const name in answer.headers) head.push(name, answer.headers[name]);
    head.push('x-request-id', id, 'content-length', answer.body ? String(Buffer.byteLength(answer.body)) : '0');
    try {
      res.writeHead(answer.status, head);
    } catch (err) {
      // A header Node refuses (ERR_INVALID_CHAR …): a logged 500 for this request only (decisions §14).
      logger.error({ err, reqId: id }, 'redirect answer could not be written');
      if (res.headersSent) res.destroy();
      else plain500(res, id);
      return 500;
    }
    // An empty body must not be passed: `end('')` costs a second write (writev) per redirect.
    if (req.method === 'HEAD' || !answer.body) res.end();
    else res.end(answer.body);
    return answer.status;
  };

  const write = (req: IncomingMessage, res: ServerResponse, answer: Answer, started: bigint, id: string) => {
    let status: number;
    try {
      status = writeAnswer(req, res, answer, id);
    } catch (err) {
      logger.error({ err, reqId: id }, 'redirect answer could not be written');
      if (!res.headersSent) plain500(res, id);
      else res.destroy();
      status = 500;
    }
    const labels = { method: req.method!, route: ROUTE, status: String(status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  };

  /** Never throws: the last guard between a visit and the process. */
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown, started: bigint, id: string) => {
    try {
      logger.error({ err, reqId: id }, 'redirect failed');
      write(req, res, unavailable, started, id);
    } catch {
      res.destroy();
    }
  };

  server.removeListener('request', fastify[0]);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (hasSeveralHosts(req.rawHeaders)) {
      res.writeHead(400, ['content-type', 'text/plain; charset=utf-8', 'connection', 'close', 'content-length', '11']);
      return res.end('Bad Request');
    }
    const url = req.url ?? '';
    const match = (req.method === 'GET' || req.method === 'HEAD') && FAST_PATH.exec(url);
    if (!match || FASTIFY_OWNED.has(match[1])) return fastify[0].call(server, req, res);
    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    try {
      const q = url.indexOf('?');
      const answer = edge.resolve({
        shortCode: match[1],
        method: req.method!,
        headers: req.headers,
        socketAddress: req.socket.remoteAddress,
        query: q === -1 ? '' : url.slice(q + 1),
      });
      if (!(answer instanceof Promise)) return write(req, res, answer, started, id);
      answer
        .then(
          (a) => write(req, res, a, started, id),
          (err: unknown) => fail(req, res, err, started, id),
        )
        .catch((err: unknown) => fail(req, res, err, started, id));
    } catch (err) {
      fail(req, res, err, started, id);
    }
  });
}
