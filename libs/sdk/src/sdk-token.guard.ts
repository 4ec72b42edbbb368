import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppCredential } from './apps.repository';
import { IngestRateLimiter } from './ingest-rate-limiter';
import { InvalidAppTokenError, MissingAppTokenError } from './sdk.errors';
import { SdkCredentialsService } from './sdk-credentials.service';

type SdkRequest = FastifyRequest & { sdkApp?: AppCredential };

const BEARER = /^Bearer\s+(\S+)$/i;

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
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (!token) throw new MissingAppTokenError();
    const app = await this.credentials.resolveAppToken(token);
    if (!app) throw new InvalidAppTokenError();
    const body = request.body as { events?: unknown } | undefined;
    const cost = Array.isArray(body?.events) ? Math.min(Math.max(body.events.length, 1), 100) : 1;
    const { headers } = await this.limiter.consume(`app:${app.appId}`, cost);
    http.getResponse<FastifyReply>().headers(headers);
    request.sdkApp = app;
    return true;
  }
}

/** The app authenticated by SdkTokenGuard. */
export const CurrentApp = createParamDecorator((_: unknown, context: ExecutionContext): AppCredential => {
  const app = context.switchToHttp().getRequest<SdkRequest>().sdkApp;
  if (!app) throw new MissingAppTokenError();
  return app;
});
