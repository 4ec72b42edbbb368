/**
 * The local part of screening one destination (decisions §22), in the order that decides its
 * verdict: credentials in the URL and feed entries block; an IDN look-alike host is suspicious.
 * Safe Browsing, which needs the network, is added by SafetyService.
 */
import { canonicalizeUrl } from './canonical-url';
import { Brand, lookalikeReason } from './lookalike';
import { ThreatMatcher } from './threat-matcher';
import { OK, Verdict } from './verdict';

export function screenLocally(raw: string, matcher: ThreatMatcher, brands: Brand[]): Verdict {
  const canonical = canonicalizeUrl(raw);
  if (!canonical) return OK;
  if (canonical.url.username || canonical.url.password) return { status: 'blocked', reason: 'credentials in URL' };
  const listed = matcher.matchCanonical(canonical);
  if (listed) return { status: 'blocked', reason: listed };
  const lookalike = lookalikeReason(canonical.host, brands);
  if (lookalike) return { status: 'suspicious', reason: lookalike };
  return OK;
}
