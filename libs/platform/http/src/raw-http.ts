import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { MetricsService, redactUrl } from '@dl/platform/observability';
import { renderError } from './error-body';
import { PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';

/**
 * What every answer of every app shares, whether Fastify serves it (bootstrap.ts's hooks) or a
 * route on the bare `node:http` request event does (`takeRequests`): the request id, the route
 * metrics, the answer's head, the contract's error body.
 */

/** Every app's request body limit (larger bodies get 413 `Payload too large`). */
export const ONE_MEGABYTE = 1024 * 1024;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** The caller's `X-Request-Id` when it is a plain token, else a new one. */
export function requestId(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** One answered request in `http_requests_total` and the latency histogram. */
export function recordRequest(metrics: MetricsService, method: string, route: string, status: number, seconds: number): void {
  metrics.http.record(method, route, status, seconds);
}

/** A route served on the bare request event: its method and pattern as Fastify would name them (metrics, the route fuzz). */
export interface RawRoute {
  method: string;
  url: string;
}

const rawRoutes = new WeakMap<NestFastifyApplication, RawRoute[]>();

/** The routes an app serves on the bare request event (`takeRequests`). */
export function rawRoutesOf(app: NestFastifyApplication): readonly RawRoute[] {
  return rawRoutes.get(app) ?? [];
}

/**
 * Serves `routes` on the app's server in front of Fastify, which then has no route of its own
 * for them: `make` gets Fastify's listener (for every request these routes do not take) and
 * returns the new one. For hot routes, where Fastify's per-request work (router, hooks, request
 * and reply objects, a child logger) would cost more than the answer.
 */
export function takeRequests(app: NestFastifyApplication, routes: RawRoute[], make: (fastify: RequestListener) => RequestListener): void {
  const server = app.getHttpServer() as Server;
  const listeners = server.listeners('request') as RequestListener[];
  if (listeners.length !== 1) throw new Error(`${routes.map((r) => `${r.method} ${r.url}`).join(', ')}: expected exactly one request listener (Fastify)`);
  const fastify = listeners[0];
  server.removeListener('request', fastify);
  server.on('request', make((req, res) => fastify.call(server, req, res)));
  rawRoutes.set(app, [...rawRoutesOf(app), ...routes]);
}

/**
 * The path of a request target as Fastify's router matches static routes: before `?` or `#`,
 * percent-decoded except reserved characters (`%2F` stays), one trailing slash ignored; null
 * when an escape is malformed (Fastify answers those itself).
 */
export function routedPath(url: string): string | null {
  let end = url.length;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c === 63 || c === 35) {
      end = i;
      break;
    }
  }
  let path = end === url.length ? url : url.slice(0, end);
  if (path.includes('%')) {
    try {
      path = decodeURI(path);
    } catch {
      return null;
    }
  }
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

const PLAIN_500 = 'Internal Server Error';

/**
 * Writes one answer on the bare response and counts it: headers as one flat list (no merged
 * object per request), `x-request-id`, `content-length`; no body on HEAD, and none passed when
 * empty (`end('')` costs a second write). A header Node refuses (ERR_INVALID_CHAR …) gets a
 * logged plain 500 for this request only (decisions §14).
 */
export class RawAnswers {
  private readonly logger: Logger;

  constructor(
    private readonly metrics: MetricsService,
    context: string,
  ) {
    this.logger = new Logger(context);
  }

  /** `started`: `performance.now()` when the request came (a double, not a BigInt per request). Never throws: a response that cannot be written at all is destroyed. */
  send(req: IncomingMessage, res: ServerResponse, route: string, started: number, id: string, status: number, headers: Readonly<Record<string, string>>, body: string): void {
    let written: number;
    try {
      written = this.write(req, res, status, headers, body, id);
    } catch (err) {
      this.logger.error({ err, reqId: id }, 'answer could not be written');
      written = this.plain500(res, id);
    }
    recordRequest(this.metrics, req.method ?? 'GET', route, written, (performance.now() - started) / 1000);
  }

  /** The contract's JSON error body, as the global filter renders it (unexpected errors logged with the request id). */
  sendError(req: IncomingMessage, res: ServerResponse, route: string, started: number, id: string, err: unknown, headers: Readonly<Record<string, string>> = {}): void {
    const rendered = renderError(err);
    if (rendered.unexpected) this.logger.error({ reqId: id, method: req.method, url: redactUrl(req.url), err }, 'Unhandled error');
    const merged = { ...headers, ...rendered.headers, 'content-type': 'application/json; charset=utf-8' };
    this.send(req, res, route, started, id, rendered.body.statusCode, merged, JSON.stringify(rendered.body));
  }

  private write(req: IncomingMessage, res: ServerResponse, status: number, headers: Readonly<Record<string, string>>, body: string, id: string): number {
    const head: string[] = [];
    for (const name in headers) head.push(name, headers[name]);
    head.push('x-request-id', id, 'content-length', body ? String(Buffer.byteLength(body)) : '0');
    try {
      res.writeHead(status, head);
    } catch (err) {
      this.logger.error({ err, reqId: id }, 'answer could not be written');
      return this.plain500(res, id);
    }
    if (req.method === 'HEAD' || !body) res.end();
    else res.end(body);
    return status;
  }

  private plain500(res: ServerResponse, id: string): number {
    try {
      if (res.headersSent) res.destroy();
      else res.writeHead(500, ['content-type', 'text/plain; charset=utf-8', 'cache-control', 'no-store', 'x-request-id', id, 'content-length', String(PLAIN_500.length)]).end(PLAIN_500);
    } catch {
      res.destroy();
    }
    return 500;
  }
}

/**
 * The request body as text, under the same limit Fastify applies to its routes: a declared
 * or streamed excess rejects with 413 `Payload too large` and ends keep-alive (the rest of
 * the body is not read).
 */
export function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      res.shouldKeepAlive = false;
      reject(new PayloadTooLargeError());
    };
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        return tooLarge();
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) resolve(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => undefined);
  });
}

/** What Fastify's default JSON parser takes: `application/json`, with or without parameters, any case. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * A JSON body read and parsed exactly as the app's Fastify routes do: under its configured body
 * limit (413), by its own default JSON parser (400 `Invalid JSON body` for an empty or malformed
 * body and for prototype poisoning). A request with neither Content-Type nor a body has none
 * (undefined); a body of any other type is 415 `Unsupported Media Type`, unread. A refused body
 * ends keep-alive.
 */
export function jsonBodyReader(app: NestFastifyApplication): (req: IncomingMessage, res: ServerResponse) => Promise<unknown> {
  const fastify = app.getHttpAdapter().getInstance();
  const limit = fastify.initialConfig.bodyLimit ?? ONE_MEGABYTE;
  const parser = fastify.getDefaultJsonParser('error', 'error');
  return async (req, res) => {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !JSON_TYPE.test(type)) {
      const length = req.headers['content-length'];
      if (type === undefined && req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0')) return undefined;
      res.shouldKeepAlive = false;
      throw new UnsupportedMediaTypeError();
    }
    const raw = await readBody(req, res, limit);
    return new Promise<unknown>((resolve, reject) => {
      void parser(req as unknown as FastifyRequest, raw, (err, body) => {
        if (!err) return resolve(body);
        res.shouldKeepAlive = false;
        reject(err);
      });
    });
  };
}
