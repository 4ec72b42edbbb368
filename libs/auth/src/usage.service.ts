import { Injectable } from '@nestjs/common';
import { UsageResponseDto } from './account-response.dto';
import { toUsageResponse } from './account.mapper';
import { PlansService } from './plans';
import { Principal } from './principal';
import { UsageRepository } from './usage.repository';

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

  async get(principal: Principal, now: Date = new Date()): Promise<UsageResponseDto> {
    const counts = await this.usage.counts(principal.organizationId, utcMonthStart(now));
    return toUsageResponse(principal.tier, counts, this.plans.limits(principal.tier));
  }
}
