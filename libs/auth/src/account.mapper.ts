import { Tier } from '@dl/platform/db';
import { ShapeAgrees } from '@dl/platform/http';
import { SessionResponseDto, SignupResponseDto, UsageResponseDto } from './account-response.dto';
import type { SignupResult } from './accounts.service';
import type { PlanLimits } from './plans';
import type { UsageCounts } from './usage.repository';

export function toSignupResponse(r: SignupResult) {
  return {
    accessToken: r.session.accessToken,
    expiresIn: r.session.expiresIn,
    user: { id: r.user.id, email: r.user.email, name: r.user.name },
    organization: { id: r.organization.id, name: r.organization.name, slug: r.organization.slug, tier: r.organization.tier },
  };
}

/** Login, refresh, accept-invite: the access token (the refresh credential goes in the cookie). */
export function toSessionResponse(s: { accessToken: string; expiresIn: number }) {
  return { accessToken: s.accessToken, expiresIn: s.expiresIn };
}

export function toUsageResponse(tier: Tier, counts: UsageCounts, limits: PlanLimits) {
  return {
    tier,
    links: { used: counts.links, limit: limits.links },
    clicksThisMonth: { used: counts.clicks, limit: limits.clicksPerMonth },
    apiKeys: { used: counts.apiKeys, limit: limits.apiKeys },
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const ACCOUNT_SHAPES_AGREE: [
  ShapeAgrees<SignupResponseDto, ReturnType<typeof toSignupResponse>>,
  ShapeAgrees<SessionResponseDto, ReturnType<typeof toSessionResponse>>,
  ShapeAgrees<UsageResponseDto, ReturnType<typeof toUsageResponse>>,
] = [true, true, true];
