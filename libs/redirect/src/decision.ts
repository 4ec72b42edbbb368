import { RedirectLinkSnapshot, UTM_KEYS } from './redirect-link';
import { VisitorPlatform } from './visitor';

/** What the edge knows about the visit, computed lazily where it costs (geo). */
export interface Visit {
  now: number;
  platform: VisitorPlatform;
  bot: boolean;
  /** ISO 3166-1 alpha-2 of the client IP, looked up only when a rule needs it. */
  country: () => string | null;
  /** Primary language subtags of Accept-Language. */
  languages: () => string[];
  /** The short URL's own query string, without '?' ('' when none). */
  query: string;
  /** Set when the click is recorded and the organization has a pixel site: `dl_click` on web destinations. */
  pixelClickId: string | null;
}

export type Outcome =
  | { kind: 'not-found' }
  | { kind: 'expired' }
  | { kind: 'unavailable' }
  | { kind: 'redirect'; location: string }
  | { kind: 'preview'; location: string; link: RedirectLinkSnapshot };

/** Steps 1-5 of decisions §7 (the click and the answer are the caller's). */
export function decide(link: RedirectLinkSnapshot | null, visit: Visit): Outcome {
  if (!link || !link.isActive) return { kind: 'not-found' };
  if (link.expiresAt !== null && link.expiresAt <= visit.now) return { kind: 'expired' };
  const { url, web } = destinationOf(link, visit);
  const clickId = web ? visit.pixelClickId : null;
  const location = clickId ? composeDestination(url, link, visit.query, clickId) : composedFor(link, url, visit.query);
  if (visit.bot && hasOpenGraph(link)) return { kind: 'preview', location, link };
  return { kind: 'redirect', location };
}

export function hasOpenGraph(link: RedirectLinkSnapshot): boolean {
  return Boolean(link.ogTitle || link.ogDescription || link.ogImageUrl);
}

/** Steps 3 and 4: targeting first (a visitor outside it skips platform routing), then the platform. */
export function destinationOf(link: RedirectLinkSnapshot, visit: Visit): { url: string; web: boolean } {
  if (!matchesTargeting(link, visit)) return { url: link.webFallbackUrl ?? link.originalUrl, web: true };
  if (visit.platform === 'ios' && link.iosUrl) return { url: link.iosUrl, web: false };
  if (visit.platform === 'android' && link.androidUrl) return { url: link.androidUrl, web: false };
  if (visit.platform === 'web' && link.webFallbackUrl) return { url: link.webFallbackUrl, web: true };
  return { url: link.originalUrl, web: true };
}

/**
 * Every rule that is set must match: the country of the IP is in `countries`, one of the
 * accepted languages is in `languages`, the platform (ios/android/web) is in `devices`.
 * An unknown country or a missing Accept-Language does not match a rule that needs it.
 */
export function matchesTargeting(link: RedirectLinkSnapshot, visit: Visit): boolean {
  const rules = link.targetingRules;
  if (!rules) return true;
  if (rules.devices?.length && !rules.devices.includes(visit.platform)) return false;
  if (rules.languages?.length) {
    const accepted = visit.languages();
    if (!accepted.some((l) => rules.languages!.includes(l))) return false;
  }
  if (rules.countries?.length) {
    const country = visit.country();
    if (!country || !rules.countries.includes(country)) return false;
  }
  return true;
}

/** Composed destinations of a cached snapshot (a snapshot never changes: a reload is a new object). */
const composed = new WeakMap<RedirectLinkSnapshot, Map<string, string>>();
/** (destination, visitor query) pairs remembered per snapshot, first seen first: unique queries (fbclid …) cannot grow it. */
const COMPOSED_PER_LINK = 4;

/** composeDestination without a click id, memoized per snapshot (the URL parse and serialization cost ~2-4 µs a visit). */
function composedFor(link: RedirectLinkSnapshot, destination: string, visitorQuery: string): string {
  let memo = composed.get(link);
  const key = `${destination}\n${visitorQuery}`;
  const hit = memo?.get(key);
  if (hit !== undefined) return hit;
  const location = composeDestination(destination, link, visitorQuery, null);
  if (!memo) composed.set(link, (memo = new Map()));
  if (memo.size < COMPOSED_PER_LINK) memo.set(key, location);
  return location;
}

/**
 * Step 5: the visitor's own query is passed through (keys the stored destination already
 * has keep the stored value), then the link's UTM parameters are added where absent,
 * then `dl_click`. The scheme, host and path always come from the stored link.
 */
export function composeDestination(
  destination: string,
  link: RedirectLinkSnapshot,
  visitorQuery: string,
  clickId: string | null,
): string {
  if (!visitorQuery && !link.utmParameters && !clickId) return destination;
  let url: URL;
  try {
    url = new URL(destination);
  } catch {
    return destination;
  }
  const params = url.searchParams;
  if (visitorQuery) {
    const stored = new Set(params.keys());
    for (const [key, value] of new URLSearchParams(visitorQuery)) {
      if (!stored.has(key) && key !== 'dl_click') params.append(key, value);
    }
  }
  if (link.utmParameters) {
    for (const key of UTM_KEYS) {
      const value = link.utmParameters[key];
      if (value !== undefined && !params.has(`utm_${key}`)) params.append(`utm_${key}`, value);
    }
  }
  if (clickId) params.set('dl_click', clickId);
  return url.toString();
}
