import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';
import { SuspensionsService } from '../suspensions.service';
import { BlockedLink } from './rescreen.pg';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Suspends an organization pending review once `AUTO_SUSPEND_BLOCKED_LINKS` of its links were
 * blocked by re-screening within 24 h (decisions §22). Each organization's blocked links are a
 * sorted set in Redis (link id → time blocked): a link counts once however often it is blocked,
 * and destinations refused at creation never get here.
 */
@Injectable()
export class AutoSuspension {
  private readonly logger = new Logger(AutoSuspension.name);
  private readonly limit: number;

  constructor(
    private readonly redis: RedisService,
    private readonly suspensions: SuspensionsService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.AUTO_SUSPEND_BLOCKED_LINKS;
  }

  /** Counts newly blocked links; answers the organizations this call suspended. */
  async record(links: readonly BlockedLink[], now = Date.now()): Promise<Set<string>> {
    const byOrg = new Map<string, BlockedLink[]>();
    for (const l of links) byOrg.set(l.organizationId, [...(byOrg.get(l.organizationId) ?? []), l]);
    const suspended = new Set<string>();
    for (const [organizationId, mine] of byOrg) {
      const key = this.redis.key('safety', 'rescreen-blocked', organizationId);
      const multi = this.redis.client.multi();
      for (const l of mine) multi.zadd(key, l.blockedAt.getTime(), l.id);
      const replies = (await multi.zremrangebyscore(key, '-inf', now - DAY_MS).pexpire(key, DAY_MS).zcard(key).exec()) ?? [];
      const count = Number(replies[replies.length - 1]?.[1] ?? 0);
      if (count < this.limit || (await this.suspensions.isSuspended(organizationId))) continue;
      const reason = `automatic: ${count} links blocked by re-screening within 24 h, pending review`;
      await this.suspensions.suspend(organizationId, reason);
      this.logger.warn({ organizationId, blockedLinks: count }, 'organization suspended pending review');
      suspended.add(organizationId);
    }
    return suspended;
  }
}
