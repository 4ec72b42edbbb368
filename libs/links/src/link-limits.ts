import { Tier } from '@dl/platform/db';

/**
 * Links per organization by plan (decisions §5). `null` = no limit.
 * TODO(identity): read from the shared plan-limits module once it exists, so
 * PLAN_LIMITS overrides apply here too.
 */
export const LINK_LIMITS: Record<Tier, number | null> = {
  FREE: 1_000,
  PRO: 25_000,
  BUSINESS: 100_000,
  UNLIMITED: null,
};

export function linkLimit(tier: Tier): number | null {
  return LINK_LIMITS[tier] ?? null;
}
