/**
 * The local part of screening one destination (decisions §22), in the order that decides its
 * verdict: credentials in the URL and feed entries block; an IDN look-alike host is suspicious.
 * Safe Browsing, which needs the network, is added by SafetyService.
 */
import { CanonicalUrl, canonicalizeUrl } from './canonical-url';
import { Brand, lookalikeReason } from './lookalike';
import { ThreatMatcher } from './threat-matcher';
import { OK, ThreatReason, Verdict } from './verdict';

export function screenLocally(raw: string, matcher: ThreatMatcher, brands: Brand[]): Verdict {
  const canonical = canonicalizeUrl(raw);
  if (!canonical) return OK;
  const blocked = blockingReasonOf(canonical, matcher);
  if (blocked) return { status: 'blocked', reason: blocked };
  const lookalike = lookalikeReason(canonical.host, brands);
  if (lookalike) return { status: 'suspicious', reason: lookalike };
  return OK;
}

function blockingReasonOf(canonical: CanonicalUrl, matcher: ThreatMatcher): ThreatReason | null {
  if (canonical.url.username || canonical.url.password) return 'credentials in URL';
  return matcher.matchCanonical(canonical);
}

/** Why the local rules block a destination (credentials, a feed entry), or null: re-screening's check. */
export function blockingReason(raw: string, matcher: ThreatMatcher): ThreatReason | null {
  const canonical = canonicalizeUrl(raw);
  return canonical ? blockingReasonOf(canonical, matcher) : null;
}
