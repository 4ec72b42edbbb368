import { hash } from 'node:crypto';
import { parseUrl, UTM_KEYS } from '@dl/platform/validation';
import { RedirectLinkSnapshot, RuleConditions } from './redirect-link';
import { BrowserName, OsName, VisitorPlatform } from './visitor';

/** What the decision reads of a visit (the edge's `Visit`; plain objects in tests), computed lazily where it costs (geo). */
export interface VisitFacts {
  now: number;
  /** The link of the visited (host, code), or null when there is none. */
  link: RedirectLinkSnapshot | null;
  platform: VisitorPlatform;
  bot: boolean;
  /** ISO 3166-1 alpha-2 of the client IP, looked up only when a rule needs it. */
  country: () => string | null;
  /** Primary language subtags of Accept-Language (shared: never written to). */
  languages: () => readonly string[];
  /** Operating system and browser of the user agent (redirect rules only). */
  os?: () => OsName | null;
  browser?: () => BrowserName | null;
  /** Stable per visitor (IP + user agent): picks the A/B variant. */
  visitorKey?: () => string;
  /** The short URL's own query string, without '?' ('' when none). */
  query: string;
  /** `query` parsed (once per visit; rules with query conditions read it). */
  queryParams?: () => URLSearchParams;
  /** Set when the click is recorded and the organization is on a paid plan or has a pixel site: `dl_click` on web destinations. */
  pixelClickId: string | null;
  /** The link's click cap is used up (counted by the caller, see ClickCap). */
  capReached?: boolean;
  /** The visitor proved the link's password (form or signed cookie). */
  unlocked?: boolean;
  /** Where the host sends a code it does not know (a branded domain's `notFoundUrl`); else the 404 page. */
  notFoundUrl?: string | null;
  /** The visitor chose "Continue" on the warning page of a suspicious link (`dl_continue=1`). */
  continued?: boolean;
}

/** The query parameter of the warning page's "Continue" link (never passed on to the destination). */
export const CONTINUE_PARAM = 'dl_continue';

/** Which variant and which rule chose the destination (recorded on the click). */
export interface Choice {
  variant: number | null;
  rule: number | null;
}

export type Outcome =
  | { kind: 'not-found' }
  | { kind: 'expired' }
  | { kind: 'unavailable' }
  | { kind: 'not-found-redirect'; location: string }
  | { kind: 'expired-redirect'; location: string }
  | { kind: 'password'; link: RedirectLinkSnapshot; wrong?: boolean }
  | { kind: 'too-many-tries' }
  | { kind: 'disabled'; reason: string | null }
  | { kind: 'warning'; link: RedirectLinkSnapshot; destination: string; query: string }
  | ({ kind: 'redirect'; location: string } & Partial<Choice>)
  | ({ kind: 'cloak'; location: string; link: RedirectLinkSnapshot } & Partial<Choice>)
  | ({ kind: 'preview'; location: string; link: RedirectLinkSnapshot } & Partial<Choice>);

/** A link that answers at all: known, active, not past `expiresAt` (the click cap is the caller's). */
export function isLive(link: RedirectLinkSnapshot | null, now: number): link is RedirectLinkSnapshot {
  return link !== null && link.isActive && (link.expiresAt === null || link.expiresAt > now);
}

/**
 * The decision order of decisions §16 (replacing §7 steps 1-4): unknown/inactive → the host's
 * `notFoundUrl` or 404; expired by date or clicks → `expiredUrl` or 410; password → form; crawler
 * with Open Graph → preview; redirect rules; targeting gate; variants; platform routing; cloak;
 * UTM and query.
 */
export function decide(visit: VisitFacts): Outcome {
  const link = visit.link;
  if (!link || !link.isActive) return visit.notFoundUrl ? { kind: 'not-found-redirect', location: visit.notFoundUrl } : { kind: 'not-found' };
  // Blocked by screening (decisions §22): a 403 page with no way through, before anything else.
  if (link.safetyStatus === 'blocked') return { kind: 'disabled', reason: link.safetyReason };
  if ((link.expiresAt !== null && link.expiresAt <= visit.now) || visit.capReached) {
    return link.expiredUrl ? { kind: 'expired-redirect', location: link.expiredUrl } : { kind: 'expired' };
  }
  if (link.passwordHash && !visit.unlocked) return { kind: 'password', link };
  const { url, web, variant, rule } = destinationOf(link, visit);
  // Suspicious: a warning page (crawlers too) until the visitor continues; no click until then.
  if (link.safetyStatus === 'suspicious' && !visit.continued) return { kind: 'warning', link, destination: url, query: visit.query };
  const clickId = web ? visit.pixelClickId : null;
  const location = clickId ? composeDestination(url, link, visit.query, clickId) : composedFor(link, url, visit.query);
  // Only a chosen variant or rule is named (a plain link's outcome stays two fields).
  const choice: Partial<Choice> = variant === null && rule === null ? {} : variant === null ? { rule: rule! } : { variant };
  if (visit.bot && hasOpenGraph(link)) return { kind: 'preview', location, link, ...choice };
  if (link.cloak && web && !isAppStore(url)) return { kind: 'cloak', location, link, ...choice };
  return { kind: 'redirect', location, ...choice };
}

export function hasOpenGraph(link: RedirectLinkSnapshot): boolean {
  return Boolean(link.ogTitle || link.ogDescription || link.ogImageUrl);
}

const APP_STORES = /^https?:\/\/(apps\.apple\.com|itunes\.apple\.com|play\.google\.com|market\.android\.com|appgallery\.huawei\.com|www\.amazon\.com\/gp\/mas)(\/|$|\?)/i;

/** App-store pages refuse framing and must open the store app: never cloaked. */
export function isAppStore(url: string): boolean {
  return APP_STORES.test(url);
}

/**
 * Redirect rules (first match wins), then the targeting gate (a visitor outside it goes to
 * `webFallbackUrl` and skips the rest), then variants (the web destination), then the platform.
 */
export function destinationOf(link: RedirectLinkSnapshot, visit: VisitFacts): { url: string; web: boolean; variant: number | null; rule: number | null } {
  if (link.redirectRules) {
    const rules = rulesOf(link, link.redirectRules);
    for (let i = 0; i < rules.length; i++) {
      if (matchesCompiled(rules[i], visit)) return { url: rules[i].url, web: true, variant: null, rule: i };
    }
  }
  if (!matchesTargeting(link, visit)) return { url: link.webFallbackUrl ?? link.originalUrl, web: true, variant: null, rule: null };
  if (visit.platform === 'ios' && link.iosUrl) return { url: link.iosUrl, web: false, variant: null, rule: null };
  if (visit.platform === 'android' && link.androidUrl) return { url: link.androidUrl, web: false, variant: null, rule: null };
  if (link.variants) {
    const variant = pickVariant(link, visit.visitorKey ? visit.visitorKey() : '');
    return { url: link.variants[variant].url, web: true, variant, rule: null };
  }
  if (visit.platform === 'web' && link.webFallbackUrl) return { url: link.webFallbackUrl, web: true, variant: null, rule: null };
  return { url: link.originalUrl, web: true, variant: null, rule: null };
}

/**
 * Sticky A/B choice: the first 32 bits of md5(visitor, "\n", link id) onto 0-99, walked through
 * the weights. The bucket must never change (a visitor keeps its variant across deploys);
 * `hash()` is the one-shot form of `createHash('md5')` (the same bytes, no Hash object).
 */
export function pickVariant(link: Pick<RedirectLinkSnapshot, 'id' | 'variants'>, visitorKey: string): number {
  const variants = link.variants!;
  const bucket = parseInt(hash('md5', `${visitorKey}\n${link.id}`, 'hex').slice(0, 8), 16) % 100;
  let acc = 0;
  for (let i = 0; i < variants.length; i++) {
    acc += variants[i].weight;
    if (bucket < acc) return i;
  }
  return variants.length - 1;
}

/** A rule's conditions as the edge checks them: empty lists dropped, times parsed, query pairs listed (once per snapshot). */
interface CompiledRule {
  url: string;
  devices: readonly string[] | null;
  after: number | null;
  before: number | null;
  query: ReadonlyArray<readonly [string, string]> | null;
  languages: readonly string[] | null;
  os: readonly string[] | null;
  browsers: readonly string[] | null;
  countries: readonly string[] | null;
}

const nonEmpty = (list: string[] | undefined): readonly string[] | null => (list?.length ? list : null);

function compileRule(c: RuleConditions, url: string): CompiledRule {
  const query = c.query ? Object.entries(c.query) : [];
  return {
    url,
    devices: nonEmpty(c.devices),
    // An unparseable time (never stored: the API validates) compares false, as Date.parse's NaN did.
    after: c.after ? Date.parse(c.after) : null,
    before: c.before ? Date.parse(c.before) : null,
    query: query.length ? query : null,
    languages: nonEmpty(c.languages),
    os: nonEmpty(c.os),
    browsers: nonEmpty(c.browsers),
    countries: nonEmpty(c.countries),
  };
}

/** Compiled rules of a cached snapshot (a snapshot never changes: a reload is a new object). */
const compiledRules = new WeakMap<RedirectLinkSnapshot, CompiledRule[]>();

function rulesOf(link: RedirectLinkSnapshot, rules: NonNullable<RedirectLinkSnapshot['redirectRules']>): CompiledRule[] {
  let compiled = compiledRules.get(link);
  if (!compiled) compiledRules.set(link, (compiled = rules.map((r) => compileRule(r.conditions, r.url))));
  return compiled;
}

/** Every condition given must hold; an unknown country, OS or browser matches no list. */
function matchesCompiled(c: CompiledRule, visit: VisitFacts): boolean {
  if (c.devices && !c.devices.includes(visit.platform)) return false;
  if (c.after !== null && visit.now < c.after) return false;
  if (c.before !== null && visit.now >= c.before) return false;
  if (c.query) {
    const params = visit.queryParams ? visit.queryParams() : new URLSearchParams(visit.query);
    for (const [key, value] of c.query) if (params.get(key) !== value) return false;
  }
  if (c.languages) {
    const languages = c.languages;
    if (!visit.languages().some((l) => languages.includes(l))) return false;
  }
  if (c.os) {
    const os = visit.os?.() ?? null;
    if (!os || !c.os.includes(os)) return false;
  }
  if (c.browsers) {
    const browser = visit.browser?.() ?? null;
    if (!browser || !c.browsers.includes(browser)) return false;
  }
  if (c.countries) {
    const country = visit.country();
    if (!country || !c.countries.includes(country)) return false;
  }
  return true;
}

/**
 * Every rule that is set must match: the country of the IP is in `countries`, one of the
 * accepted languages is in `languages`, the platform (ios/android/web) is in `devices`.
 * An unknown country or a missing Accept-Language does not match a rule that needs it.
 */
export function matchesTargeting(link: RedirectLinkSnapshot, visit: Pick<VisitFacts, 'platform' | 'languages' | 'country'>): boolean {
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
/** The same for visits without a query (most), keyed by the destination itself: no key string built and hashed per visit. */
const composedPlain = new WeakMap<RedirectLinkSnapshot, Map<string, string>>();
/** (destination, visitor query) pairs remembered per snapshot, first seen first: unique queries (fbclid …) cannot grow it. */
const COMPOSED_PER_LINK = 4;

/** composeDestination without a click id, memoized per snapshot (a URL parse and serialization per visit would cost more than the rest of the decision). */
function composedFor(link: RedirectLinkSnapshot, destination: string, visitorQuery: string): string {
  const memos = visitorQuery ? composed : composedPlain;
  let memo = memos.get(link);
  const key = visitorQuery ? `${destination}\n${visitorQuery}` : destination;
  const hit = memo?.get(key);
  if (hit !== undefined) return hit;
  const location = composeDestination(destination, link, visitorQuery, null);
  if (!memo) memos.set(link, (memo = new Map()));
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
  if (visitorQuery === `${CONTINUE_PARAM}=1` && !link.utmParameters && !clickId) return destination;
  const url = parseUrl(destination);
  if (!url) return destination;
  const params = url.searchParams;
  if (visitorQuery) {
    const stored = new Set(params.keys());
    for (const [key, value] of new URLSearchParams(visitorQuery)) {
      if (!stored.has(key) && key !== 'dl_click' && key !== CONTINUE_PARAM) params.append(key, value);
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
