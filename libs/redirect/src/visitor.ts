import { BoundedCache, isBotUserAgent } from '@dl/platform/geo';
import { TtlCache } from './ttl-cache';

export type VisitorPlatform = 'ios' | 'android' | 'web';

export interface UserAgentTraits {
  platform: VisitorPlatform;
  /** A crawler, link-preview fetcher or script: the service's one bot rule (`isBotUserAgent`, shared with the worker). */
  bot: boolean;
}

const IOS = /\b(iPhone|iPad|iPod)\b/;
const ANDROID = /\bAndroid\b/i;

const traitsCache = new TtlCache<UserAgentTraits>(20_000);
const TRAITS_TTL_MS = 3_600_000;

/** Platform and bot flag of a user agent, memoized (real traffic repeats a few thousand strings). */
export function userAgentTraits(userAgent: string | null): UserAgentTraits {
  const ua = userAgent ?? '';
  const hit = traitsCache.get(ua);
  if (hit) return hit;
  const platform: VisitorPlatform = IOS.test(ua) ? 'ios' : ANDROID.test(ua) ? 'android' : 'web';
  const traits = { platform, bot: isBotUserAgent(ua) };
  traitsCache.set(ua, traits, TRAITS_TTL_MS);
  return traits;
}

export type OsName = 'iOS' | 'Android' | 'Windows' | 'macOS' | 'Linux';
export type BrowserName = 'Chrome' | 'Safari' | 'Firefox' | 'Edge' | 'Samsung Internet' | 'Opera';

/** The operating system named by a user agent (redirect rules), or null. */
export function userAgentOs(ua: string | null): OsName | null {
  if (!ua) return null;
  if (IOS.test(ua)) return 'iOS';
  if (ANDROID.test(ua)) return 'Android';
  if (/Windows NT|Windows Phone|Win64|Win32/.test(ua)) return 'Windows';
  if (/Macintosh|Mac OS X/.test(ua)) return 'macOS';
  if (/Linux|X11|CrOS/.test(ua)) return 'Linux';
  return null;
}

/** The browser named by a user agent (redirect rules), or null. Order matters: most embed "Chrome" or "Safari". */
export function userAgentBrowser(ua: string | null): BrowserName | null {
  if (!ua) return null;
  if (/SamsungBrowser\//.test(ua)) return 'Samsung Internet';
  if (/\bEdg(e|A|iOS)?\//.test(ua)) return 'Edge';
  if (/\bOPR\/|\bOpera\b|\bOPT\//.test(ua)) return 'Opera';
  if (/\bFirefox\/|\bFxiOS\//.test(ua)) return 'Firefox';
  if (/\bChrome\/|\bCriOS\//.test(ua)) return 'Chrome';
  if (/\bSafari\//.test(ua) && /\bVersion\//.test(ua)) return 'Safari';
  return null;
}

/** Accept-Language headers repeat (a few hundred per audience): each is parsed once. */
const languageLists = new BoundedCache<string, readonly string[]>(2_000);
/** Longer headers (only hostile or broken clients send them) are parsed each time, never kept. */
const MAX_CACHED_LANGUAGE_HEADER = 256;
const NO_LANGUAGES: readonly string[] = Object.freeze([]);

/**
 * Primary language subtags of an Accept-Language header, in the visitor's order ("en-GB;q=0.8"
 * → "en"). Memoized per header (parsing it on every visit to a link with a language rule would
 * cost more than the rule): the list is shared and frozen.
 */
export function acceptedLanguages(header: string | null): readonly string[] {
  if (!header) return NO_LANGUAGES;
  const hit = languageLists.get(header);
  if (hit !== undefined) return hit;
  const list = Object.freeze(parseAcceptedLanguages(header));
  if (header.length <= MAX_CACHED_LANGUAGE_HEADER) languageLists.set(header, list);
  return list;
}

function parseAcceptedLanguages(header: string): string[] {
  const out: string[] = [];
  for (const part of header.split(',').slice(0, 20)) {
    const [tag, ...params] = part.trim().split(';');
    const q = params.find((p) => p.trim().startsWith('q='));
    if (q && Number(q.trim().slice(2)) === 0) continue;
    const primary = tag.trim().split('-')[0].toLowerCase();
    if (/^[a-z]{2,3}$/.test(primary) && !out.includes(primary)) out.push(primary);
  }
  return out;
}
