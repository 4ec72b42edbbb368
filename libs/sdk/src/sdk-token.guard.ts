import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppCredential } from './apps.repository';
import { IngestRateLimiter } from './ingest-rate-limiter';
import { InvalidAppTokenError, MissingAppTokenError } from './sdk.errors';
import { SdkCredentialsService } from './sdk-credentials.service';

type SdkRequest = FastifyRequest & { sdkApp?: AppCredential };

const BEARER = /^Bearer\s+(\S+)$/i;

/** An authenticated SDK call: its app and the rate-limit headers every answer carries. */
export interface SdkCaller {
  app: AppCredential;
  rateLimitHeaders: Record<string, string>;
}

/**
 * SDK routes: `Authorization: Bearer dla_…` (401 when absent or unknown/revoked), then the
 * per-token rate limit (a batch counts each event), with the API's rate-limit headers.
 */
@Injectable()
export class SdkTokenGuard implements CanActivate {
  constructor(
    private readonly credentials: SdkCredentialsService,
    private readonly limiter: IngestRateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<SdkRequest>();
    const { app, rateLimitHeaders } = await this.authenticate(request.headers.authorization, request.body);
    http.getResponse<FastifyReply>().headers(rateLimitHeaders);
    request.sdkApp = app;
    return true;
  }

  /**
   * The token check and rate limit of one call (shared by the guard and the ingest app's
   * `node:http` fast path): throws the contract's 401 / 429 errors.
   */
  async authenticate(authorization: string | string[] | undefined, body: unknown): Promise<SdkCaller> {
    const app = await this.resolveApp(authorization);
    return { app, rateLimitHeaders: await this.limit(app, body) };
  }

  /** The app of `Authorization: Bearer dla_…`; 401 when absent, unknown or revoked. */
  async resolveApp(authorization: string | string[] | undefined): Promise<AppCredential> {
    const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
    if (!token) throw new MissingAppTokenError();
    const app = await this.credentials.resolveAppToken(token);
    if (!app) throw new InvalidAppTokenError();
    return app;
  }

  /** Counts the call against the app's limit (a batch counts each event); 429 when over it. Returns the headers. */
  async limit(app: AppCredential, body: unknown): Promise<Record<string, string>> {
    const events = (body as { events?: unknown } | null | undefined)?.events;
    const cost = Array.isArray(events) ? Math.min(Math.max(events.length, 1), 100) : 1;
    return (await this.limiter.consume(`app:${app.appId}`, cost)).headers;
  }
}

/** The app authenticated by SdkTokenGuard. */
export const CurrentApp = createParamDecorator((_: unknown, context: ExecutionContext): AppCredential => {
  const app = context.switchToHttp().getRequest<SdkRequest>().sdkApp;
  if (!app) throw new MissingAppTokenError();
  return app;
});
