import { Injectable } from '@nestjs/common';
import { AppCredential } from './apps.repository';
import { IngestRateLimiter } from './ingest-rate-limiter';
import { InvalidAppTokenError, MissingAppTokenError } from './sdk.errors';
import { SdkCredentialsService } from './sdk-credentials.service';

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * Who calls an SDK route: the app of `Authorization: Bearer dla_…` (401 when absent, unknown or
 * revoked), then its per-token rate limit (a batch counts each event; 429 past it) with the API's
 * rate-limit headers.
 */
@Injectable()
export class SdkAuth {
  constructor(
    private readonly credentials: SdkCredentialsService,
    private readonly limiter: IngestRateLimiter,
  ) {}

  /** The app of `Authorization: Bearer dla_…`; 401 when absent, unknown or revoked. */
  async app(authorization: string | string[] | undefined): Promise<AppCredential> {
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
