import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ValidationMap } from '@dl/platform/http';
import { JobQueue, Queues, SdkEventRecord } from '@dl/platform/queue';
import { AppCredential } from './apps.repository';
import { isCurrencyCode } from './currencies';
import { EventBuffer } from './event-buffer';
import { revenueFields, throwIfInvalid } from './event-rules';
import { PixelEventDto, SdkEventDto, SdkOpenDto } from './ingest.dto';
import { IngestRateLimiter, RateLimitResult } from './ingest-rate-limiter';
import { InvalidSiteKeyError, IngestUnavailableError, OriginNotAllowedError } from './sdk.errors';
import { SdkCredentialsService } from './sdk-credentials.service';
import { scopedUuid } from './tokens';

export interface Accepted {
  accepted: number;
  ids: string[];
}

/** The page a pixel call comes from, as the browser says: `Origin`, else `Referer`. */
export interface PixelCaller {
  origin?: string;
  referer?: string;
}

/**
 * Decisions §14: a pixel call's `Origin` (or, without one, `Referer`) host must be the site's
 * domain or a subdomain of it. A browser always sends `Origin` on the cross-origin POST the pixel
 * makes, so another site's page cannot hide where it is; a call with neither header is not from a
 * browser page (a server, a test), where both headers could be forged anyway, and is let through.
 * `Origin: null` (sandboxed or privacy-stripped pages) and unparsable values are refused.
 */
export function pixelOriginAllowed(domain: string, { origin, referer }: PixelCaller): boolean {
  const source = origin ?? referer;
  if (source === undefined || source === '') return true;
  let host: string;
  try {
    host = new URL(source).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return false;
  }
  const site = domain.toLowerCase().replace(/\.$/, '');
  return host === site || host.endsWith(`.${site}`);
}

/** SDK events, sessions and pixel events: validate the rules DTOs cannot express, then enqueue. */
@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);

  constructor(
    private readonly buffer: EventBuffer,
    private readonly queue: JobQueue,
    private readonly credentials: SdkCredentialsService,
    private readonly limiter: IngestRateLimiter,
  ) {}

  /** All-or-nothing: one bad event refuses the whole call (nothing is queued). */
  async trackEvents(app: AppCredential, events: SdkEventDto[], batched: boolean, now = new Date()): Promise<Accepted> {
    const validation: ValidationMap = {};
    const receivedAt = now.toISOString();
    const records: SdkEventRecord[] = events.map((e, i) => {
      const { revenue, currency } = revenueFields(e.eventName, e.properties, validation, batched ? `events[${i}].` : '');
      return {
        id: e.eventId ? scopedUuid(app.appId, e.eventId) : randomUUID(),
        organizationId: app.organizationId,
        appId: app.appId,
        installId: e.installId.toLowerCase(),
        eventName: e.eventName,
        eventData: e.properties ?? {},
        eventTimestamp: e.timestamp ? new Date(e.timestamp).toISOString() : receivedAt,
        revenue,
        currency,
        receivedAt,
      };
    });
    throwIfInvalid(validation);
    await this.buffer.push(records);
    return { accepted: records.length, ids: records.map((r) => r.id) };
  }

  async open(app: AppCredential, dto: SdkOpenDto, now = new Date()): Promise<{ accepted: true }> {
    const id = randomUUID();
    await this.enqueue(() =>
      this.queue.add(
        Queues.ingest,
        'sdk.open',
        { id, organizationId: app.organizationId, appId: app.appId, installId: dto.installId.toLowerCase(), url: dto.url ?? null, openedAt: now.toISOString() },
        { timeoutMs: 2000 },
      ),
    );
    return { accepted: true };
  }

  /** Pixel calls carry their (public) site key in the body: authenticate it here, then limit and enqueue. */
  async pixelEvent(
    dto: PixelEventDto,
    now = new Date(),
    from: PixelCaller = {},
  ): Promise<{ result: { accepted: true }; rateLimit: RateLimitResult }> {
    const site = await this.credentials.resolveSiteKey(dto.siteKey);
    if (!site) throw new InvalidSiteKeyError();
    if (!pixelOriginAllowed(site.domain, from)) throw new OriginNotAllowedError();
    const rateLimit = await this.limiter.consume(`site:${site.siteId}`);
    const validation: ValidationMap = {};
    if (dto.currency !== undefined && !isCurrencyCode(dto.currency)) validation.currency = 'Must be an ISO 4217 currency code';
    if (dto.value !== undefined && dto.type !== 'conversion') validation.value = 'Only conversions carry a value';
    throwIfInvalid(validation);
    await this.enqueue(() =>
      this.queue.add(
        Queues.ingest,
        'pixel.event',
        {
          id: randomUUID(),
          organizationId: site.organizationId,
          siteId: site.siteId,
          type: dto.type,
          url: dto.url,
          referrer: dto.referrer ?? null,
          clickId: dto.clickId?.toLowerCase() ?? null,
          value: dto.value ?? null,
          currency: dto.currency ?? null,
          occurredAt: now.toISOString(),
        },
        { timeoutMs: 2000 },
      ),
    );
    return { result: { accepted: true }, rateLimit };
  }

  private async enqueue(add: () => Promise<void>): Promise<void> {
    try {
      await add();
    } catch (err) {
      this.logger.error({ err: (err as Error).message }, 'ingestion could not be queued');
      throw new IngestUnavailableError();
    }
  }
}
