import { hash } from 'node:crypto';
import { BoundedCache } from '@dl/platform/geo';

export interface FingerprintParts {
  organizationId: string;
  ip: string | null | undefined;
  /** iOS, Android, ... (any case) */
  platform: string | null | undefined;
  /** Full or partial version; only the major number counts (browsers and SDKs report different precision). */
  osVersion: string | null | undefined;
  /** Accept-Language header or a BCP 47 tag; only the first primary subtag counts. */
  language: string | null | undefined;
}

/** Accept-Language headers repeat (a few per audience): each is split once (twice per click before). */
const languages = new BoundedCache<string, string>(1_000);

export function normalizeLanguage(language: string | null | undefined): string {
  if (!language) return '';
  let primary = languages.get(language);
  if (primary === undefined) {
    const first = language.split(',')[0].trim().split(';')[0];
    primary = first.split(/[-_]/)[0].toLowerCase();
    languages.set(language, primary);
  }
  return primary;
}

export function osMajor(version: string | null | undefined): string {
  const m = /^\s*(\d+)/.exec(version ?? '');
  return m ? m[1] : '';
}

/**
 * The device fingerprint deferred deep linking matches a click against an install:
 * (IP, platform, OS major version, language), scoped by organization. Both the click
 * worker (when it stores a click) and the SDK install attribution use this function.
 * Returns null without an IP or platform: such a click can only match by clickId.
 */
export function deviceFingerprint(parts: FingerprintParts): string | null {
  const ip = (parts.ip ?? '').trim().toLowerCase();
  const platform = (parts.platform ?? '').trim().toLowerCase();
  if (!ip || !platform) return null;
  return hash('sha256', [parts.organizationId, ip, platform, osMajor(parts.osVersion), normalizeLanguage(parts.language)].join('|'), 'hex').slice(0, 32);
}
