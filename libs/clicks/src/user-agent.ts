import UAParser from 'ua-parser-js';
import { BoundedCache } from '@dl/platform/geo';

export type DeviceType = 'mobile' | 'desktop' | 'tablet';
/** Platforms of analytics; `null` when the OS is none of them (rolled up as `Other`). */
export type Platform = 'iOS' | 'Android' | 'Windows' | 'macOS' | 'Linux';

export interface ParsedUserAgent {
  deviceType: DeviceType;
  platform: Platform | null;
  browser: string | null;
  browserVersion: string | null;
  os: string | null;
  osVersion: string | null;
}

const LINUX_FAMILY = /^(linux|ubuntu|debian|fedora|centos|red hat|redhat|suse|opensuse|arch|gentoo|mint|mandriva|slackware|kubuntu|xubuntu|zenwalk|pclinuxos|deepin)/i;

export function platformOf(osName: string | undefined): Platform | null {
  if (!osName) return null;
  if (osName === 'iOS') return 'iOS';
  if (osName === 'Android' || osName === 'HarmonyOS') return 'Android';
  if (osName === 'Windows' || osName === 'Windows Phone' || osName === 'Windows Mobile') return 'Windows';
  if (osName === 'Mac OS' || osName === 'macOS') return 'macOS';
  if (LINUX_FAMILY.test(osName)) return 'Linux';
  return null;
}

/** ua-parser-js device types → ours; desktop browsers report no type (desktop). */
export function deviceTypeOf(type: string | undefined): DeviceType {
  if (type === 'mobile' || type === 'wearable') return 'mobile';
  if (type === 'tablet') return 'tablet';
  return 'desktop';
}

const cache = new BoundedCache<string, ParsedUserAgent>(20_000);

/** Parses a user agent (ua-parser-js 1.x, MIT), memoized: real traffic repeats a few thousand strings. */
export function parseUserAgent(userAgent: string | null | undefined): ParsedUserAgent {
  const ua = userAgent ?? '';
  const hit = cache.get(ua);
  if (hit) return hit;
  const r = new UAParser(ua).getResult();
  const parsed: ParsedUserAgent = {
    deviceType: deviceTypeOf(r.device.type),
    platform: platformOf(r.os.name),
    browser: r.browser.name ?? null,
    browserVersion: r.browser.version ?? null,
    os: r.os.name ?? null,
    osVersion: r.os.version ?? null,
  };
  cache.set(ua, parsed);
  return parsed;
}
