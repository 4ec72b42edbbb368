import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, parseJsonObjectVariable } from '@dl/platform/config';
import { Tier } from '@dl/platform/db';

/** Limits of one plan; `null` means no limit. */
export interface PlanLimits {
  links: number | null;
  apiKeys: number | null;
  /** Counted, never blocked (redirects always work). */
  clicksPerMonth: number | null;
  requestsPerMinute: number;
  /** Days of raw click history kept. */
  rawClickRetentionDays: number;
  eventAnalytics: boolean;
  /** Branded domains (decisions §15). */
  domains: number | null;
}

/** decisions §5. Overridable per field with the PLAN_LIMITS JSON variable. */
export const DEFAULT_PLAN_LIMITS: Readonly<Record<Tier, Readonly<PlanLimits>>> = {
  FREE: { links: 1000, apiKeys: 1, clicksPerMonth: 5000, requestsPerMinute: 10, rawClickRetentionDays: 30, eventAnalytics: false, domains: 1 },
  PRO: { links: 25000, apiKeys: 3, clicksPerMonth: 100000, requestsPerMinute: 60, rawClickRetentionDays: 365, eventAnalytics: true, domains: 3 },
  BUSINESS: { links: 100000, apiKeys: 10, clicksPerMonth: 500000, requestsPerMinute: 200, rawClickRetentionDays: 1095, eventAnalytics: true, domains: 10 },
  UNLIMITED: { links: null, apiKeys: null, clicksPerMonth: null, requestsPerMinute: 1000, rawClickRetentionDays: 1095, eventAnalytics: true, domains: null },
};

const NULLABLE: ReadonlySet<keyof PlanLimits> = new Set(['links', 'apiKeys', 'clicksPerMonth', 'domains']);

/** Parses PLAN_LIMITS (`{"FREE":{"requestsPerMinute":20}}`); throws naming the bad entry. */
export function parsePlanLimits(json: string | undefined): Record<Tier, PlanLimits> {
  const plans = Object.fromEntries(
    Object.entries(DEFAULT_PLAN_LIMITS).map(([tier, limits]) => [tier, { ...limits }]),
  ) as Record<Tier, PlanLimits>;
  if (!json) return plans;
  const raw = parseJsonObjectVariable('PLAN_LIMITS', json, '{"FREE":{"requestsPerMinute":20}}');
  for (const [tier, overrides] of Object.entries(raw)) {
    if (!(tier in plans)) throw new Error(`PLAN_LIMITS: unknown tier "${tier}"`);
    if (!overrides || typeof overrides !== 'object') throw new Error(`PLAN_LIMITS.${tier} must be an object`);
    for (const [field, value] of Object.entries(overrides as Record<string, unknown>)) {
      const key = field as keyof PlanLimits;
      if (!(key in plans[tier as Tier])) throw new Error(`PLAN_LIMITS.${tier}: unknown limit "${field}"`);
      const ok =
        key === 'eventAnalytics'
          ? typeof value === 'boolean'
          : (value === null && NULLABLE.has(key)) || (Number.isInteger(value) && (value as number) >= 0);
      if (!ok) throw new Error(`PLAN_LIMITS.${tier}.${field} has an invalid value`);
      (plans[tier as Tier] as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return plans;
}

/** The limits of each plan, read once at boot. */
@Injectable()
export class PlansService {
  private readonly plans: Record<Tier, PlanLimits>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.plans = parsePlanLimits(config.PLAN_LIMITS);
  }

  limits(tier: Tier): Readonly<PlanLimits> {
    return this.plans[tier];
  }
}
