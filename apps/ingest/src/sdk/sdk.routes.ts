import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { BodyValidator, clientIp, compileBodyValidator, jsonBodyReader, RawAnswers, requestId, routedPath, takeRequests } from '@dl/platform/http';
import { MetricsService } from '@dl/platform/observability';
import { AppCredential, AttributionService, IngestService, SdkAuth, SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto } from '@dl/sdk';
import { closedCorsHeaders } from '../ingest.cors';

interface SdkRoute<T> {
  path: string;
  status: number;
  /** The DTO's rules compiled from its metadata: the global ValidationPipe's DTO, or its 400. */
  validate: BodyValidator<T>;
  /**
   * The handler. `gate` is the rate limit being counted: a handler given one may start its reads
   * meanwhile and awaits it before any write; without one, the gate has settled already.
   */
  handle: (app: AppCredential, dto: T, req: IncomingMessage, gate: Promise<void> | null) => Promise<unknown>;
}

const route = <T>(r: SdkRoute<T>): SdkRoute<unknown> => r as SdkRoute<unknown>;

/**
 * The SDK routes (`POST /api/sdk/v1/install|open|event|events`, Bearer app token, JSON body), the
 * only entry of these paths, on the bare `node:http` request event in front of Fastify (its
 * router, hooks and Nest's pipeline cost more than the call). In the order the API's routes
 * answer: the path as Fastify's router matches it, the body (`jsonBodyReader`: 415, 413, 400
 * `Invalid JSON body`), the app token (401) and rate limit (429, and the headers on every
 * answer), validation (the DTO's compiled rules), the handler; the app's CORS policy for these
 * paths (`Vary: Origin`); request id, route metrics and the contract's error body (`RawAnswers`).
 */
export function installSdkRoutes(app: NestFastifyApplication): void {
  const attribution = app.get(AttributionService);
  const ingest = app.get(IngestService);
  const auth = app.get(SdkAuth);
  const trustedIpHeader = app.get<AppConfig>(APP_CONFIG).TRUSTED_CLIENT_IP_HEADER;
  const answers = new RawAnswers(app.get(MetricsService), 'Errors');
  const readJson = jsonBodyReader(app);
  const routes = new Map(
    [
      // Deferred deep link: the attribution at once (idempotent per installId); its reads run while the limit is counted.
      route<SdkInstallDto>({
        path: '/api/sdk/v1/install',
        status: 200,
        validate: compileBodyValidator(SdkInstallDto),
        handle: (a, dto, req, gate) => attribution.attribute(a, dto, clientIp(req.headers, req.socket.remoteAddress, trustedIpHeader), new Date(), gate ?? undefined),
      }),
      route<SdkOpenDto>({ path: '/api/sdk/v1/open', status: 202, validate: compileBodyValidator(SdkOpenDto), handle: (a, dto) => ingest.open(a, dto) }),
      route<SdkEventDto>({
        path: '/api/sdk/v1/event',
        status: 202,
        validate: compileBodyValidator(SdkEventDto),
        handle: async (a, dto) => ({ accepted: true, id: (await ingest.trackEvents(a, [dto], false)).ids[0] }),
      }),
      // Up to 100 events in one call (the SDK's batches); all-or-nothing.
      route<SdkEventBatchDto>({ path: '/api/sdk/v1/events', status: 202, validate: compileBodyValidator(SdkEventBatchDto), handle: (a, dto) => ingest.trackEvents(a, dto.events, true) }),
    ].map((r) => [r.path, r]),
  );
  const readsFirst = new Set(['/api/sdk/v1/install']);
  const cors = new Map([...routes.keys()].map((path) => [path, closedCorsHeaders(path)]));

  const serve = async (req: IncomingMessage, res: ServerResponse, r: SdkRoute<unknown>, started: number, id: string) => {
    let headers: Record<string, string> = { ...cors.get(r.path) };
    try {
      const body = await readJson(req, res);
      const caller = await auth.app(req.headers.authorization);
      const limited = auth.limit(caller, body).then((rateLimit) => void (headers = { ...rateLimit, ...headers }));
      // Handled here so a 429 that settles while a read is in flight is not an unhandled rejection.
      limited.catch(() => undefined);
      let dto: unknown;
      try {
        dto = r.validate(body);
      } catch (err) {
        // The rate limit answers first (429 before 400), as the API's guards run before its pipes.
        await limited;
        throw err;
      }
      if (!readsFirst.has(r.path)) await limited;
      const result = await r.handle(caller, dto, req, readsFirst.has(r.path) ? limited : null);
      answers.send(req, res, r.path, started, id, r.status, { ...headers, 'content-type': 'application/json; charset=utf-8' }, JSON.stringify(result));
    } catch (err) {
      answers.sendError(req, res, r.path, started, id, err, headers);
    }
  };

  takeRequests(app, [...routes.keys()].map((url) => ({ method: 'POST', url })), (fastify) => (req, res) => {
    const r = req.method === 'POST' ? routes.get(routedPath(req.url ?? '') ?? '') : undefined;
    if (!r) return fastify(req, res);
    // Answers never throw; a response that cannot be written at all ends this request only (decisions §14).
    serve(req, res, r, performance.now(), requestId(req.headers)).catch(() => res.destroy());
  });
}
