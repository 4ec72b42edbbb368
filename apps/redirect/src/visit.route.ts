import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RawAnswers, requestId, takeRequests } from '@dl/platform/http';
import { MetricsService } from '@dl/platform/observability';
import { Answer, buildAnswer, RedirectService } from '@dl/redirect';

const ROUTE = '/:shortCode';
/** Longest code looked up; a longer path gets the 404 page, as Fastify's router answered it. */
export const MAX_SHORT_CODE_PARAM = 256;
/** The usual visit: a code with nothing to decode, before the query. */
const PLAIN = /^\/([A-Za-z0-9_-]{1,64})\/?(?:\?|$)/;
/** An absolute-form request target's scheme and host (`GET http://host/code`), which the router drops. */
const ABSOLUTE = /^https?:\/\/.*?\//;
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
 * The code of `/<code>` in a request target, read as Fastify's router reads `/:shortCode`: the
 * one path segment (scheme and host of an absolute form, the query and fragment, one trailing
 * slash ignored), percent-decoded. Null when the target is no such path or names one of
 * `owned` (the app's static routes): Fastify answers it. Undefined when the escape is malformed
 * or the code longer than MAX_SHORT_CODE_PARAM: the 404 page.
 */
export function visitedCode(url: string, owned: ReadonlySet<string>): string | null | undefined {
  const plain = PLAIN.exec(url);
  if (plain) return owned.has(plain[1]) ? null : plain[1];
  let path = url;
  if (path.charCodeAt(0) !== 47) {
    const scheme = ABSOLUTE.exec(path);
    if (!scheme) return null;
    path = path.slice(scheme[0].length - 1);
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const raw = path.slice(1);
  if (raw === '' || raw.includes('/')) return null;
  let code = raw;
  if (raw.includes('%')) {
    try {
      code = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  if (code.length > MAX_SHORT_CODE_PARAM) return undefined;
  return owned.has(code) ? null : code;
}

/**
 * `GET|HEAD /<code>`, the visit, on the bare `node:http` request event: its only entry (Fastify
 * has no route for it). A cached redirect costs a regex, a map lookup, the decision and one
 * write: no router, hooks or per-request logger. Every visit answers through `RedirectService`
 * and the platform's `RawAnswers` (request id, route metrics, the answer's head); other methods
 * and paths, and the app's static routes, go to Fastify.
 */
export function installVisitRoute(app: NestFastifyApplication): void {
  const edge = app.get(RedirectService);
  const answers = new RawAnswers(app.get(MetricsService), 'Redirect');
  const logger = new Logger('Redirect');
  const unavailable = buildAnswer({ kind: 'unavailable' });
  const notFound = buildAnswer({ kind: 'not-found' });
  // The app's static one-segment routes (`/health`, `/metrics`) win over `/<code>`, as they did in Fastify's router.
  const owned = new Set<string>();
  app.getHttpAdapter().getInstance().addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (/^\/[^/:*]+$/.test(route.url) && (methods.includes('GET') || methods.includes('HEAD'))) owned.add(route.url.slice(1));
  });

  const send = (req: IncomingMessage, res: ServerResponse, a: Answer, started: number, id: string) =>
    answers.send(req, res, ROUTE, started, id, a.status, a.headers, a.body);
  /** Never throws: the last guard between a visit and the process. */
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown, started: number, id: string) => {
    logger.error({ err, reqId: id }, 'redirect failed');
    send(req, res, unavailable, started, id);
  };

  takeRequests(app, [{ method: 'GET', url: ROUTE }, { method: 'HEAD', url: ROUTE }], (fastify) => (req, res) => {
    if (hasSeveralHosts(req.rawHeaders)) return res.writeHead(400, BAD_REQUEST).end('Bad Request');
    const code = req.method === 'GET' || req.method === 'HEAD' ? visitedCode(req.url ?? '', owned) : null;
    if (code === null) return fastify(req, res);
    const started = performance.now();
    const id = requestId(req.headers);
    if (code === undefined) return send(req, res, notFound, started, id);
    try {
      const answer = edge.visit(req, code);
      if (!(answer instanceof Promise)) return send(req, res, answer, started, id);
      answer.then((a) => send(req, res, a, started, id), (err: unknown) => fail(req, res, err, started, id));
    } catch (err) {
      fail(req, res, err, started, id);
    }
  });
}
