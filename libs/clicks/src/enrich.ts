import { hash } from 'node:crypto';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { BoundedCache, GeoIp, GeoLocation, isBotUserAgent } from '@dl/platform/geo';
import { isUuid } from '@dl/platform/validation';
import { deviceFingerprint, normalizeLanguage } from './fingerprint';
import { parseUserAgent, ParsedUserAgent } from './user-agent';

/** A click as stored in `clicks`: the edge's raw facts plus everything derived from them. */
export interface EnrichedClick extends GeoLocation, ParsedUserAgent {
  id: string;
  organizationId: string;
  linkId: string;
  clickedAt: Date;
  /** YYYY-MM-DD (UTC) of clickedAt: the rollup day. */
  day: string;
  ipAddress: string | null;
  userAgent: string | null;
  referrer: string | null;
  referrerHost: string | null;
  acceptLanguage: string | null;
  language: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  isBot: boolean;
  visitorHash: string;
  fingerprint: string | null;
  /** A/B variant index and redirect rule index chosen at the edge (decisions §16). */
  variantIndex: number | null;
  ruleIndex: number | null;
}

const MAX_UA = 1024;
const MAX_URL = 2048;
const MAX_PARAM = 512;

const optionalString = (v: unknown) => v === null || v === undefined || typeof v === 'string';

/**
 * Why a queued click cannot be stored (null when it can). One malformed payload
 * must fail alone, never the batch it would share with good clicks.
 */
export function invalidClickReason(job: unknown): string | null {
  if (!job || typeof job !== 'object') return 'payload is not an object';
  const j = job as Record<string, unknown>;
  for (const key of ['id', 'linkId', 'organizationId'] as const) {
    if (!isUuid(j[key])) return `${key} is not a UUID`;
  }
  if (typeof j.clickedAt !== 'string') return 'clickedAt is not a string';
  for (const key of ['ip', 'userAgent', 'referrer', 'acceptLanguage'] as const) {
    if (!optionalString(j[key])) return `${key} is not a string`;
  }
  if (j.query !== undefined && j.query !== null && (typeof j.query !== 'object' || Array.isArray(j.query))) return 'query is not an object';
  return null;
}

/** ES2024's String.prototype.toWellFormed (Node 20 has it; the compiler's lib here predates it). */
function wellFormed(value: string): string {
  const s = value as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  return s.isWellFormed() ? value : s.toWellFormed();
}

function clip(value: unknown, max: number): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = String(value).trim();
  if (!trimmed) return null;
  const clipped = trimmed.length > max ? trimmed.slice(0, max) : trimmed;
  // A lone surrogate becomes U+FFFD, as UTF-8 encoding (the driver's, the visitor hash's) makes it.
  return wellFormed(clipped);
}

const referrerHosts = new BoundedCache<string, string | null>(10_000);

export function referrerHost(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  const hit = referrerHosts.get(referrer);
  if (hit !== undefined) return hit;
  const host = parseReferrerHost(referrer);
  referrerHosts.set(referrer, host);
  return host;
}

function parseReferrerHost(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Unique-visitor key: SHA-256 of IP and user agent, salted with the organization (never comparable across tenants). */
export function visitorHash(organizationId: string, ip: string | null, userAgent: string | null): string {
  return hash('sha256', `${organizationId}\u0000${ip ?? ''}\u0000${userAgent ?? ''}`, 'hex').slice(0, 32);
}

/** Latest instant whose ISO form has a 4-digit year (so `day` is always YYYY-MM-DD). */
const MAX_CLICK_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function validDate(iso: string, fallback: Date): Date {
  const d = new Date(iso);
  const t = d.getTime();
  // Unparseable, before 1970 or past year 9999 (only a corrupt or hostile job): the time it is processed.
  return Number.isNaN(t) || t < 0 || t > MAX_CLICK_TIME ? fallback : d;
}

const DAY_MS = 86_400_000;
/** YYYY-MM-DD strings by UTC day number: a batch's clicks share a day or two, and the string is shared with them. */
const dayStrings = new BoundedCache<number, string>(64);

/** The UTC day (YYYY-MM-DD) of a time: one string per day rather than one per click (held with it until its batch commits). */
export function utcDay(time: number): string {
  const n = Math.floor(time / DAY_MS);
  let day = dayStrings.get(n);
  if (day === undefined) {
    day = new Date(n * DAY_MS).toISOString().slice(0, 10);
    dayStrings.set(n, day);
  }
  return day;
}

/** An index the edge recorded (0-19), or null for anything else. */
function smallIndex(v: unknown): number | null {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 100 ? v : null;
}

/** Derives every stored field of a click from the edge's raw facts (pure, except the memoized lookups). */
export function enrichClick(job: ClickCapturedJob, geo: GeoIp, now = new Date()): EnrichedClick {
  const clickedAt = validDate(job.clickedAt, now);
  const userAgent = clip(job.userAgent, MAX_UA);
  const ip = clip(job.ip, 64);
  const ua = parseUserAgent(userAgent);
  const location = geo.lookup(ip);
  const referrer = clip(job.referrer, MAX_URL);
  const acceptLanguage = clip(job.acceptLanguage, 256);
  const query = job.query ?? {};
  return {
    id: job.id,
    organizationId: job.organizationId,
    linkId: job.linkId,
    clickedAt,
    day: utcDay(clickedAt.getTime()),
    ipAddress: ip,
    userAgent,
    referrer,
    referrerHost: referrerHost(referrer),
    acceptLanguage,
    language: normalizeLanguage(acceptLanguage) || null,
    ...ua,
    ...location,
    utmSource: clip(query.utm_source, MAX_PARAM),
    utmMedium: clip(query.utm_medium, MAX_PARAM),
    utmCampaign: clip(query.utm_campaign, MAX_PARAM),
    utmTerm: clip(query.utm_term, MAX_PARAM),
    utmContent: clip(query.utm_content, MAX_PARAM),
    isBot: isBotUserAgent(userAgent),
    variantIndex: smallIndex(job.variantIndex),
    ruleIndex: smallIndex(job.ruleIndex),
    visitorHash: visitorHash(job.organizationId, ip, userAgent),
    fingerprint: deviceFingerprint({
      organizationId: job.organizationId,
      ip,
      platform: ua.platform,
      osVersion: ua.osVersion,
      language: acceptLanguage,
    }),
  };
}
