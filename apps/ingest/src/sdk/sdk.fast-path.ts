import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Type } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createValidationPipe,
  findTooDeep,
  findUnstorableText,
  jsonBodyReader,
  RawAnswers,
  requestId,
  takeRequests,
  TOO_DEEP_MESSAGE,
  UNSTORABLE_TEXT_MESSAGE,
  ValidationError,
} from '@dl/platform/http';
import { MetricsService } from '@dl/platform/observability';
import { AppCredential, fastEvent, fastEventBatch, fastInstall, fastOpen, SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto, SdkTokenGuard } from '@dl/sdk';
import { closedCorsHeaders } from '../ingest.cors';
import { SdkController } from './sdk.controller';

/** What Fastify's default JSON parser takes: `application/json`, with or without parameters. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

interface Route {
  status: number;
  metatype: Type<unknown>;
  /** Hand-written check of the usual body; null → the ValidationPipe decides (and words the 400). */
  fast: (body: unknown) => unknown;
  /** The controller's handler; `gate` only for one that reads before it writes (install). */
  handle: (app: AppCredential, dto: never, req: IncomingMessage, gate?: Promise<unknown>) => Promise<unknown>;
  /** Runs the handler's reads while the rate limit is counted (a fast-validated body only). */
  readsFirst?: boolean;
}

/**
 * The SDK routes (`POST /api/sdk/v1/install|open|event|events`, JSON body) on the bare `node:http`
 * request event, in front of Fastify: no router, hooks, Nest pipeline or class-validator on the usual
 * call. What the Nest route gets is kept, in its order, from the same code: Fastify's body limit and
 * JSON parser (413, 400 `Invalid JSON body`, prototype poisoning), the token and rate limit of
 * `SdkTokenGuard` (401/429 with the API's headers), validation (a hand-written check, else the global
 * ValidationPipe), the controller's handler, the app's CORS policy, and the platform's `RawAnswers`
 * (request id, metrics, the global filter's error body). Everything else goes to Fastify.
 */
export function installSdkFastPath(app: NestFastifyApplication): void {
  const controller = app.get(SdkController);
  const guard = app.get(SdkTokenGuard);
  const answers = new RawAnswers(app.get(MetricsService), 'Errors');
  const pipe = createValidationPipe();
  const readJson = jsonBodyReader(app);
  const routes = new Map<string, Route>([
    ['/api/sdk/v1/install', { status: 200, metatype: SdkInstallDto, fast: fastInstall, handle: (a, dto, req, gate) => controller.install(a, dto, req, gate), readsFirst: true }],
    ['/api/sdk/v1/open', { status: 202, metatype: SdkOpenDto, fast: fastOpen, handle: (a, dto) => controller.open(a, dto) }],
    ['/api/sdk/v1/event', { status: 202, metatype: SdkEventDto, fast: (b) => fastEvent(b), handle: (a, dto) => controller.event(a, dto) }],
    ['/api/sdk/v1/events', { status: 202, metatype: SdkEventBatchDto, fast: (b) => fastEventBatch(b), handle: (a, dto) => controller.events(a, dto) }],
  ]);
  const cors = new Map([...routes.keys()].map((path) => [path, closedCorsHeaders(path)]));

  const handle = async (req: IncomingMessage, res: ServerResponse, path: string, route: Route, started: number, id: string) => {
    let headers: Record<string, string> = { ...cors.get(path) };
    try {
      const body = await readJson(req, res);
      const caller = await guard.resolveApp(req.headers.authorization);
      const limited = guard.limit(caller, body).then((rateLimit) => void (headers = { ...rateLimit, ...headers }));
      // Handled here so a 429 that settles while the read is in flight is not an unhandled rejection.
      limited.catch(() => undefined);
      // NUL or a lone surrogate anywhere (keys and property values too): a validation error (decisions §14).
      const unstorable = findUnstorableText(body);
      if (unstorable !== null) {
        await limited;
        throw new ValidationError({ [unstorable]: UNSTORABLE_TEXT_MESSAGE });
      }
      // Nested past 64 levels, as the pipe refuses it (the fast check's JSON.stringify overflowed the stack: a 500).
      const deep = findTooDeep(body);
      if (deep !== null) {
        await limited;
        throw new ValidationError({ [deep]: TOO_DEEP_MESSAGE });
      }
      const fast = route.fast(body);
      let result: unknown;
      if (fast && route.readsFirst) result = await route.handle(caller, fast as never, req, limited);
      else {
        await limited;
        result = await route.handle(caller, (fast ?? (await pipe.transform(body, { type: 'body', metatype: route.metatype }))) as never, req);
      }
      answers.send(req, res, path, started, id, route.status, { ...headers, 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(result));
    } catch (err) {
      answers.sendError(req, res, path, started, id, err, headers);
    }
  };

  takeRequests(app, 'sdk fast path', (toFastify) => (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const route = req.method === 'POST' ? routes.get(path) : undefined;
    const type = req.headers['content-type'];
    if (!route || typeof type !== 'string' || !JSON_TYPE.test(type)) return toFastify(req, res);
    // Answers never throw; a response that cannot be written at all ends this request only (decisions §14).
    handle(req, res, path, route, performance.now(), requestId(req.headers)).catch(() => res.destroy());
  });
}
