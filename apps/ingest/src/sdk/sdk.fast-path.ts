import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BodyValidator, compileBodyValidator, jsonBodyReader, RawAnswers, requestId, takeRequests } from '@dl/platform/http';
import { MetricsService } from '@dl/platform/observability';
import { AppCredential, SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto, SdkTokenGuard } from '@dl/sdk';
import { closedCorsHeaders } from '../ingest.cors';
import { SdkController } from './sdk.controller';

/** What Fastify's default JSON parser takes: `application/json`, with or without parameters. */
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

interface Route {
  status: number;
  /** The DTO's rules compiled from its metadata: the global ValidationPipe's DTO or 400. */
  validate: BodyValidator<unknown>;
  /** The controller's handler; `gate` only for one that reads before it writes (install). */
  handle: (app: AppCredential, dto: never, req: IncomingMessage, gate?: Promise<unknown>) => Promise<unknown>;
  /** Runs the handler's reads while the rate limit is counted. */
  readsFirst?: boolean;
}

/**
 * The SDK routes (`POST /api/sdk/v1/install|open|event|events`, JSON body) on the bare `node:http`
 * request event, in front of Fastify: no router, hooks or Nest pipeline on the usual call. What the
 * Nest route gets is kept, in its order, from the same code: Fastify's body limit and JSON parser
 * (413, 400 `Invalid JSON body`, prototype poisoning), the token and rate limit of `SdkTokenGuard`
 * (401/429 with the API's headers), validation (the DTO's rules compiled from its metadata: the
 * global ValidationPipe's verdict), the controller's handler, the app's CORS policy, and the
 * platform's `RawAnswers` (request id, metrics, the global filter's error body). Everything else
 * goes to Fastify.
 */
export function installSdkFastPath(app: NestFastifyApplication): void {
  const controller = app.get(SdkController);
  const guard = app.get(SdkTokenGuard);
  const answers = new RawAnswers(app.get(MetricsService), 'Errors');
  const readJson = jsonBodyReader(app);
  const routes = new Map<string, Route>([
    ['/api/sdk/v1/install', { status: 200, validate: compileBodyValidator(SdkInstallDto), handle: (a, dto, req, gate) => controller.install(a, dto, req, gate), readsFirst: true }],
    ['/api/sdk/v1/open', { status: 202, validate: compileBodyValidator(SdkOpenDto), handle: (a, dto) => controller.open(a, dto) }],
    ['/api/sdk/v1/event', { status: 202, validate: compileBodyValidator(SdkEventDto), handle: (a, dto) => controller.event(a, dto) }],
    ['/api/sdk/v1/events', { status: 202, validate: compileBodyValidator(SdkEventBatchDto), handle: (a, dto) => controller.events(a, dto) }],
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
      let dto: unknown;
      try {
        dto = route.validate(body);
      } catch (err) {
        // The rate limit's answer (429) comes before validation's, as the guard runs before the pipe.
        await limited;
        throw err;
      }
      let result: unknown;
      if (route.readsFirst) result = await route.handle(caller, dto as never, req, limited);
      else {
        await limited;
        result = await route.handle(caller, dto as never, req);
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
