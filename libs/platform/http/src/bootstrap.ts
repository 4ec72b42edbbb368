import type { IncomingHttpHeaders } from 'node:http';
import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { AppConfig } from '@dl/platform/config';
import { createLogger, MetricsService, PinoNestLogger } from '@dl/platform/observability';
import { AllExceptionsFilter, sendError } from './exception.filter';
import { guardProcess } from './process-guard';
import { ONE_MEGABYTE, recordRequest, requestId } from './raw-http';
import { runInRequestContext } from './request-context';
import { makeCloseGraceful, onDrain } from './shutdown';
import { createValidationPipe } from './validation.pipe';

export interface HttpAppOptions {
  /** Request body limit in bytes (default 1 MB: larger bodies get 413 `Payload too large`). */
  bodyLimit?: number;
  /** Log one line per request (default true). */
  requestLog?: boolean;
  /** Longest path parameter accepted (default 256: a domain name is up to 253 characters). */
  maxParamLength?: number;
  /**
   * Answers Fastify's routing errors (malformed percent-encoding, an over-long parameter).
   * Default: the contract's error body, 400 `Invalid URL` or 414 `Path parameter too long`.
   */
  frameworkErrors?: FastifyServerOptions['frameworkErrors'];
  /**
   * Keep each request's IP, user agent and id reachable by the services it calls
   * (`currentRequestMeta`, for audit entries). Default false: the edges record no audit.
   */
  requestContext?: boolean;
}

/** Longest path parameter by default: a domain name (public stats) is up to 253 characters. */
export const MAX_PARAM_LENGTH = 256;
const frameworkLogger = new Logger('Errors');

/** A routing error, answered before any hook: the request id header is set here. */
const sendFrameworkError: NonNullable<FastifyServerOptions['frameworkErrors']> = (err, request, reply) => {
  reply.header('x-request-id', request.id);
  sendError(err, request, reply, frameworkLogger);
};

function routeOf(request: FastifyRequest): string {
  return request.routeOptions?.url ?? 'unmatched';
}

/**
 * Creates a NestJS app on Fastify with everything every app shares: pino logs with
 * request ids, the global error filter (also for Fastify's own errors: bad JSON,
 * body too large), strict validation, metrics per route, and shutdown hooks.
 */
export async function createHttpApp(
  module: Type | DynamicModule,
  config: AppConfig,
  name: string,
  options: HttpAppOptions = {},
): Promise<NestFastifyApplication> {
  const logger = createLogger(config, name);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // Fastify's own per-request lines are off: one line per request is logged below.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'reqId' }),
    bodyLimit: options.bodyLimit ?? ONE_MEGABYTE,
    genReqId: (req: { headers: IncomingHttpHeaders }) => requestId(req.headers),
    routerOptions: { maxParamLength: options.maxParamLength ?? MAX_PARAM_LENGTH, ignoreTrailingSlash: true },
    trustProxy: false,
    // These answer before any route or Nest's filter: without a handler Fastify sends its own body (with `code`).
    frameworkErrors: options.frameworkErrors ?? sendFrameworkError,
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  app.useGlobalFilters(new AllExceptionsFilter());
  app.useGlobalPipes(createValidationPipe());
  // Not Nest's shutdown hooks (they end pools while HTTP still serves): `close()` drains first, main.ts calls it on SIGTERM/SIGINT.
  makeCloseGraceful(app, config.SHUTDOWN_TIMEOUT_MS);

  const fastify = app.getHttpAdapter().getInstance();
  // Fastify's own errors (bad JSON, body too large) reach Nest's error handler and so
  // the global filter above: one renderer for every error.

  const metrics = app.get(MetricsService);
  const unguard = guardProcess(logger, metrics);
  // (Assigning `app.close` is a no-op: Nest's app is a Proxy whose set trap ignores writes.)
  onDrain(app, async () => unguard());
  const requestLog = options.requestLog ?? true;
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // After the body is read (a body stream would leave the context): the handler and the
  // services it calls see the request's IP, user agent and id (audit entries).
  if (options.requestContext) {
    fastify.addHook('preHandler', (request, _reply, done) => {
      const socketAddress = request.raw.socket?.remoteAddress ?? request.ip;
      runInRequestContext({ headers: request.headers, id: request.id, socketAddress }, config.TRUSTED_CLIENT_IP_HEADER, done);
    });
  }
  fastify.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    recordRequest(metrics, request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (requestLog) {
      request.log.info(
        { method: request.method, route, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
        'request completed',
      );
    }
  });
  return app;
}

/** Starts listening and waits for Fastify to be ready; returns the bound address. */
export async function listen(app: NestFastifyApplication, port: number, host: string): Promise<string> {
  await app.listen(port, host);
  return app.getUrl();
}
