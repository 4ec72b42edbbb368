import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Logger, Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BadRequestError,
  clientIp,
  createValidationPipe,
  findUnstorableText,
  ONE_MEGABYTE,
  PayloadTooLargeError,
  renderError,
  UNSTORABLE_TEXT_MESSAGE,
  ValidationError,
} from '@dl/platform/http';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import {
  AppCredential,
  AttributionService,
  fastEvent,
  fastEventBatch,
  fastInstall,
  fastOpen,
  SdkEventBatchDto,
  SdkEventDto,
  SdkInstallDto,
  SdkOpenDto,
  SdkTokenGuard,
} from '@dl/sdk';
import { SdkController } from './sdk.controller';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** What Fastify's default JSON parser takes: `application/json`, with or without parameters. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;
/** `__proto__` / `constructor` (or any escape that could spell them): checked after parsing, as Fastify does. */
const POISON_HINT = /__proto__|constructor|\\u/;

interface Route {
  status: number;
  metatype: Type<unknown>;
  /** Hand-written check of the usual body; null → the ValidationPipe decides (and words the 400). */
  fast: (body: unknown) => unknown;
  /** `gate` is given only to a handler that reads before it writes (install): it awaits it before any write. */
  handle: (app: AppCredential, dto: never, req: IncomingMessage, gate?: Promise<unknown>) => Promise<unknown>;
  /** Runs the handler's reads while the rate limit is counted (a fast-validated body only). */
  readsFirst?: boolean;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Fastify's own JSON parser refuses prototype poisoning (`onProtoPoisoning`/`onConstructorPoisoning: 'error'`). */
function poisoned(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(poisoned);
  if (Object.prototype.hasOwnProperty.call(value, '__proto__')) return true;
  const ctor = (value as Record<string, unknown>).constructor;
  if (Object.prototype.hasOwnProperty.call(value, 'constructor') && ctor !== null && typeof ctor === 'object' && Object.prototype.hasOwnProperty.call(ctor, 'prototype')) {
    return true;
  }
  return Object.values(value).some(poisoned);
}

/**
 * The SDK routes (`POST /api/sdk/v1/install|open|event|events` with a JSON body) on the bare
 * `node:http` request event, in front of Fastify, as the redirect app does for visits: no
 * router, hooks, Nest pipeline or class-validator run on the usual call. What the shared
 * pipeline gave these routes is kept, in the same order: body limit (413) and JSON errors
 * (400 `Invalid JSON body`) first, then the token and the rate limit (`SdkTokenGuard.authenticate`,
 * 401 / 429 with the API's headers), then validation (a hand-written check, else the global
 * ValidationPipe for the exact `validation` map), then the controller's own handler; errors
 * render through `renderError` (the global filter's body), and every answer carries
 * `x-request-id`, `vary: Origin` (the CORS plugin's) and counts in `http_requests_total` and the
 * latency histogram. Everything else (other paths, methods, content types) still goes to Fastify.
 */
export function installSdkFastPath(app: NestFastifyApplication): void {
  const server = app.getHttpServer() as Server;
  const fastify = server.listeners('request') as RequestListener[];
  if (fastify.length !== 1) throw new Error('sdk fast path: expected exactly one request listener (Fastify)');
  const controller = app.get(SdkController);
  const attribution = app.get(AttributionService);
  const trustedIpHeader = app.get<AppConfig>(APP_CONFIG).TRUSTED_CLIENT_IP_HEADER;
  const guard = app.get(SdkTokenGuard);
  const metrics = app.get(MetricsService);
  const pipe = createValidationPipe();
  const logger = new Logger('Errors');

  const routes = new Map<string, Route>([
    ['/api/sdk/v1/install', {
      status: 200,
      metatype: SdkInstallDto,
      fast: fastInstall,
      handle: (a, dto: SdkInstallDto, req, gate) => attribution.attribute(a, dto, clientIp(req.headers, req.socket.remoteAddress, trustedIpHeader), new Date(), gate),
      readsFirst: true,
    }],
    ['/api/sdk/v1/open', { status: 202, metatype: SdkOpenDto, fast: fastOpen, handle: (a, dto: SdkOpenDto) => controller.open(a, dto) }],
    ['/api/sdk/v1/event', { status: 202, metatype: SdkEventDto, fast: (b) => fastEvent(b), handle: (a, dto: SdkEventDto) => controller.event(a, dto) }],
    ['/api/sdk/v1/events', {
      status: 202,
      metatype: SdkEventBatchDto,
      fast: (b) => fastEventBatch(b),
      handle: (a, dto: SdkEventBatchDto) => controller.events(a, dto),
    }],
  ]);

  const send = (req: IncomingMessage, res: ServerResponse, path: string, status: number, payload: unknown, headers: Record<string, string>, started: bigint, id: string) => {
    const body = JSON.stringify(payload);
    res.writeHead(status, {
      ...headers,
      vary: 'Origin',
      'x-request-id': id,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    const labels = { method: 'POST', route: path, status: String(status) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
  };

  const fail = (req: IncomingMessage, res: ServerResponse, path: string, err: unknown, headers: Record<string, string>, started: bigint, id: string) => {
    const rendered = renderError(err);
    if (rendered.unexpected) logger.error({ reqId: id, method: req.method, url: req.url, err }, 'Unhandled error');
    send(req, res, path, rendered.body.statusCode, rendered.body, { ...headers, ...rendered.headers }, started, id);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, route: Route, raw: string, started: bigint, id: string) => {
    let rateLimitHeaders: Record<string, string> = {};
    try {
      let body: unknown;
      try {
        if (!raw) throw new Error('empty');
        body = JSON.parse(raw);
        if (POISON_HINT.test(raw) && poisoned(body)) throw new Error('poisoned');
      } catch {
        res.shouldKeepAlive = false;
        throw new BadRequestError('Invalid JSON body');
      }
      const caller = await guard.resolveApp(req.headers.authorization);
      const limited = guard.limit(caller, body).then((headers) => {
        rateLimitHeaders = headers;
      });
      // Handled here so a 429 that settles while the read is in flight is not an unhandled rejection.
      limited.catch(() => undefined);
      // NUL or a lone surrogate anywhere (keys and property values too): a validation error (decisions §14).
      const unstorable = findUnstorableText(body);
      if (unstorable !== null) {
        await limited;
        throw new ValidationError({ [unstorable]: UNSTORABLE_TEXT_MESSAGE });
      }
      const fast = route.fast(body);
      let result: unknown;
      if (fast && route.readsFirst) {
        result = await route.handle(caller, fast as never, req, limited);
      } else {
        await limited;
        const dto = fast ?? (await pipe.transform(body, { type: 'body', metatype: route.metatype }));
        result = await route.handle(caller, dto as never, req);
      }
      send(req, res, path, route.status, result, rateLimitHeaders, started, id);
    } catch (err) {
      fail(req, res, path, err, rateLimitHeaders, started, id);
    }
  };

  server.removeListener('request', fastify[0]);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = req.method === 'POST' ? routes.get(path) : undefined;
    const type = req.headers['content-type'];
    if (!route || typeof type !== 'string' || !JSON_TYPE.test(type)) return fastify[0].call(server, req, res);

    const started = process.hrtime.bigint();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    const tooLarge = () => {
      res.shouldKeepAlive = false;
      fail(req, res, path, new PayloadTooLargeError(), {}, started, id);
    };
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > ONE_MEGABYTE) return tooLarge();

    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > ONE_MEGABYTE) {
        refused = true;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      const raw = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
      handle(req, res, path, route, raw, started, id).catch((err: unknown) => {
        // The answer itself could not be written: this request only (decisions §14).
        logger.error({ reqId: id, err }, 'sdk answer could not be written');
        res.destroy();
      });
    });
    req.on('error', () => undefined);
  });
}
