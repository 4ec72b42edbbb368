import { Injectable } from '@nestjs/common';
import { Tier } from '@dl/platform/db';
import { PlansService } from './plans';
import { Principal } from './principal';
import { UsageRepository } from './usage.repository';

export interface UsageResponse {
  tier: Tier;
  links: { used: number; limit: number | null };
  clicksThisMonth: { used: number; limit: number | null };
  apiKeys: { used: number; limit: number | null };
}

/** First day of the current UTC calendar month. */
export function utcMonthStart(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

/** decisions §5: usage against the plan; clicks from the daily rollups (dimension `total`, bots excluded). */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly plans: PlansService,
  ) {}

  async get(principal: Principal, now: Date = new Date()): Promise<UsageResponse> {
    const counts = await this.usage.counts(principal.organizationId, utcMonthStart(now));
    const limits = this.plans.limits(principal.tier);
    return {
      tier: principal.tier,
      links: { used: counts.links, limit: limits.links },
      clicksThisMonth: { used: counts.clicks, limit: limits.clicksPerMonth },
      apiKeys: { used: counts.apiKeys, limit: limits.apiKeys },
    };
  }
}
