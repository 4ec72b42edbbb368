import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawAnswers, requestId, takeRequests } from '@dl/platform/http';
import { MetricsService } from '@dl/platform/observability';
import { Answer, buildAnswer } from '@dl/redirect';
import { RedirectHandler } from './redirect.handler';

/** `GET|HEAD /<code>[?query]` with a code that needs no decoding: everything else goes to Fastify. */
const FAST_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/;
const ROUTE = '/:shortCode';
/** Static routes of the app (reserved words, never short codes): Fastify serves them. */
const FASTIFY_OWNED = new Set(['health', 'metrics']);
const BAD_REQUEST = ['content-type', 'text/plain; charset=utf-8', 'connection', 'close', 'content-length', '11'];

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
 * no per-request logger. It calls the same `RedirectHandler.visit` as the Fastify route and
 * answers through the platform's `RawAnswers` (request id, metrics, head); Fastify still
 * serves every request this one does not take (percent-encoded codes, trailing slashes,
 * other methods and paths).
 */
export function installRedirectFastPath(app: NestFastifyApplication): void {
  const handler = new RedirectHandler(app);
  const answers = new RawAnswers(app.get(MetricsService), 'RedirectFastPath');
  const logger = new Logger('RedirectFastPath');
  const unavailable = buildAnswer({ kind: 'unavailable' });

  const send = (req: IncomingMessage, res: ServerResponse, a: Answer, started: number, id: string) =>
    answers.send(req, res, ROUTE, started, id, a.status, a.headers, a.body);
  /** Never throws: the last guard between a visit and the process. */
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown, started: number, id: string) => {
    logger.error({ err, reqId: id }, 'redirect failed');
    send(req, res, unavailable, started, id);
  };

  takeRequests(app, [], (fastify) => (req, res) => {
    if (hasSeveralHosts(req.rawHeaders)) return res.writeHead(400, BAD_REQUEST).end('Bad Request');
    const match = (req.method === 'GET' || req.method === 'HEAD') && FAST_PATH.exec(req.url ?? '');
    if (!match || FASTIFY_OWNED.has(match[1])) return fastify(req, res);
    const started = performance.now();
    const id = requestId(req.headers);
    try {
      const answer = handler.visit(req, match[1]);
      if (!(answer instanceof Promise)) return send(req, res, answer, started, id);
      answer.then((a) => send(req, res, a, started, id), (err: unknown) => fail(req, res, err, started, id));
    } catch (err) {
      fail(req, res, err, started, id);
    }
  });
}
