import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';
import { ClickPipeline } from './click-pipeline';
import { EnrichedClick } from './enrich';

/** Most live streams an organization may hold open (decisions §24: the 21st → 429). */
export const MAX_LIVE_STREAMS = 20;
/** A stream not seen for this long no longer counts (its api process died without closing it). */
export const LIVE_STREAM_TTL_MS = 30_000;

/** The channel an organization's stored clicks are published on (one per organization: a process subscribes to those it streams). */
export function liveClicksChannel(redis: Pick<RedisService, 'key'>, organizationId: string): string {
  return redis.key('analytics', 'live', organizationId);
}

/** The sorted set of an organization's open streams (member: stream id, score: last seen, ms); it exists while one is open. */
export function liveStreamsKey(redis: Pick<RedisService, 'key'>, organizationId: string): string {
  return redis.key('analytics', 'live-streams', organizationId);
}

/** A stored click as the live stream sends it (no address, no user agent); `shortCode` is added by the api. */
export interface LiveClickMessage {
  id: string;
  linkId: string;
  clickedAt: string;
  countryCode: string | null;
  city: string | null;
  device: string;
  os: string | null;
  browser: string | null;
  referrerHost: string | null;
}

export function toLiveClickMessage(c: EnrichedClick): LiveClickMessage {
  return {
    id: c.id,
    linkId: c.linkId,
    clickedAt: c.clickedAt.toISOString(),
    countryCode: c.countryCode,
    city: c.city,
    device: c.deviceType,
    os: c.os,
    browser: c.browser,
    referrerHost: c.referrerHost,
  };
}

/** How long the worker trusts what it learnt about an organization having open streams. */
const PRESENCE_TTL_MS = 1000;

/**
 * Publishes each committed batch's non-bot clicks on their organization's live channel, for
 * organizations with an open stream (`liveStreamsKey` exists; checked at most once a second per
 * organization), so the click pipeline pays nothing for organizations nobody watches. Plain
 * PUBLISH: on a Redis Cluster it reaches subscribers on every node.
 */
@Injectable()
export class LiveClickPublisher implements OnModuleInit {
  private readonly logger = new Logger(LiveClickPublisher.name);
  private readonly presence = new Map<string, { live: boolean; until: number }>();

  constructor(
    private readonly pipeline: ClickPipeline,
    private readonly redis: RedisService,
  ) {}

  onModuleInit(): void {
    this.pipeline.use({
      // Not awaited by the batch: a slow or absent Redis never holds clicks back.
      committed: (stored) => void this.publish(stored).catch((err: unknown) => this.logger.debug({ err }, 'live clicks not published')),
    });
  }

  async publish(stored: readonly EnrichedClick[]): Promise<void> {
    const byOrganization = new Map<string, LiveClickMessage[]>();
    for (const c of stored) {
      if (c.isBot) continue;
      const list = byOrganization.get(c.organizationId);
      if (list) list.push(toLiveClickMessage(c));
      else byOrganization.set(c.organizationId, [toLiveClickMessage(c)]);
    }
    const now = Date.now();
    await Promise.all(
      [...byOrganization].map(async ([organizationId, clicks]) => {
        if (!(await this.watched(organizationId, now))) return;
        await this.redis.client.publish(liveClicksChannel(this.redis, organizationId), JSON.stringify(clicks));
      }),
    );
  }

  /** Whether the organization has an open stream (cached a second). */
  private async watched(organizationId: string, now: number): Promise<boolean> {
    const known = this.presence.get(organizationId);
    if (known && known.until > now) return known.live;
    const live = (await this.redis.client.exists(liveStreamsKey(this.redis, organizationId))) === 1;
    if (this.presence.size > 10_000) this.presence.clear();
    this.presence.set(organizationId, { live, until: now + PRESENCE_TTL_MS });
    return live;
  }
}
