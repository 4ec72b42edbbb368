import { ClickCapturedJob, newClickId } from '@dl/platform/click-codec';

/** Deterministic pseudo-random numbers (mulberry32), so a seed run is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(r: () => number, items: readonly T[]): T {
  return items[Math.floor(r() * items.length)];
}

/** Picks by weight: [[value, weight], ...]. */
export function weighted<T>(r: () => number, items: ReadonlyArray<readonly [T, number]>): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [v, w] of items) {
    x -= w;
    if (x <= 0) return v;
  }
  return items[items.length - 1][0];
}

/** Address blocks the bundled GeoLite2 City database resolves to the country (checked). */
const COUNTRIES: ReadonlyArray<readonly [{ code: string; lang: string; blocks: string[] }, number]> = [
  [{ code: 'US', lang: 'en-US,en;q=0.9', blocks: ['73.0', '24.12', '98.200', '67.160'] }, 38],
  [{ code: 'GB', lang: 'en-GB,en;q=0.9', blocks: ['86.128', '109.144'] }, 10],
  [{ code: 'CA', lang: 'en-CA,en;q=0.9,fr-CA;q=0.8', blocks: ['99.224', '142.112'] }, 8],
  [{ code: 'DE', lang: 'de-DE,de;q=0.9,en;q=0.8', blocks: ['79.192', '84.128', '91.64'] }, 9],
  [{ code: 'FR', lang: 'fr-FR,fr;q=0.9,en;q=0.7', blocks: ['90.0', '86.200'] }, 6],
  [{ code: 'NL', lang: 'nl-NL,nl;q=0.9,en;q=0.8', blocks: ['84.24', '62.194', '145.90'] }, 4],
  [{ code: 'ES', lang: 'es-ES,es;q=0.9', blocks: ['88.0', '83.40', '95.120'] }, 4],
  [{ code: 'IT', lang: 'it-IT,it;q=0.9,en;q=0.6', blocks: ['151.20', '93.40'] }, 3],
  [{ code: 'AU', lang: 'en-AU,en;q=0.9', blocks: ['110.140', '101.160'] }, 5],
  [{ code: 'JP', lang: 'ja-JP,ja;q=0.9', blocks: ['153.200'] }, 4],
  [{ code: 'BR', lang: 'pt-BR,pt;q=0.9', blocks: ['189.40', '201.50', '177.10'] }, 5],
  [{ code: 'IN', lang: 'en-IN,hi;q=0.8', blocks: ['117.192', '49.36', '106.200'] }, 4],
];

export type DeviceKind = 'ios' | 'android' | 'windows' | 'mac' | 'linux' | 'ipad';

const USER_AGENTS: Record<DeviceKind, string[]> = {
  ios: [
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 352.0.0.38.100 (iPhone15,3; iOS 18_0; en_US; en; scale=3.00; 1290x2796)',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0.6723.90 Mobile/15E148 Safari/604.1',
  ],
  ipad: [
    'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ],
  android: [
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.102 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.6668.100 Mobile Safari/537.36',
    'Mozilla/5.0 (Linux; Android 15; Pixel 9 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36',
  ],
  windows: [
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.2849.68',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  ],
  mac: [
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  ],
  linux: ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'],
};

const BOT_AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
];

const DEVICES: ReadonlyArray<readonly [DeviceKind, number]> = [
  ['ios', 34], ['android', 28], ['windows', 18], ['mac', 12], ['ipad', 4], ['linux', 2],
];

/** Where a link's visitors come from: referrer URLs and utm_source values. */
export const CHANNELS = {
  instagram: { referrers: ['https://l.instagram.com/', 'https://www.instagram.com/'], utm: 'instagram' },
  newsletter: { referrers: [null], utm: 'newsletter' },
  google: { referrers: ['https://www.google.com/', 'https://www.google.co.uk/'], utm: null },
  twitter: { referrers: ['https://t.co/'], utm: 'twitter' },
  facebook: { referrers: ['https://l.facebook.com/', 'https://m.facebook.com/'], utm: 'facebook' },
  linkedin: { referrers: ['https://www.linkedin.com/'], utm: 'linkedin' },
  tiktok: { referrers: ['https://www.tiktok.com/'], utm: 'tiktok' },
  partner: { referrers: ['https://blog.outdoorly.example/', 'https://news.ycombinator.com/'], utm: 'partner' },
} as const;
export type Channel = keyof typeof CHANNELS;

export interface Visitor {
  ip: string;
  userAgent: string;
  acceptLanguage: string;
  kind: DeviceKind;
}

/** A pool of returning visitors: each has one address, device and language. */
export function visitorPool(r: () => number, size: number): Visitor[] {
  return Array.from({ length: size }, () => {
    const country = weighted(r, COUNTRIES);
    const kind = weighted(r, DEVICES);
    const block = pick(r, country.blocks);
    return {
      ip: `${block}.${1 + Math.floor(r() * 254)}.${1 + Math.floor(r() * 254)}`,
      userAgent: pick(r, USER_AGENTS[kind]),
      acceptLanguage: country.lang,
      kind,
    };
  });
}

export interface SeedLink {
  id: string;
  shortCode: string;
  createdAt: Date;
  channel: Channel;
  campaign: string;
  /** Relative popularity. */
  weight: number;
}

/** One raw click as the redirect edge would queue it. */
export function rawClick(
  r: () => number,
  organizationId: string,
  link: SeedLink,
  visitor: Visitor,
  clickedAt: Date,
): ClickCapturedJob {
  const bot = r() < 0.02;
  const channel = CHANNELS[link.channel];
  const direct = r() < 0.18;
  const referrer = bot || direct ? null : pick(r, channel.referrers);
  const query: Record<string, string> = {};
  if (!direct && channel.utm && r() < 0.8) {
    query.utm_source = channel.utm;
    query.utm_medium = link.channel === 'newsletter' ? 'email' : 'social';
    query.utm_campaign = link.campaign;
  }
  return {
    id: newClickId(clickedAt.getTime()),
    linkId: link.id,
    organizationId,
    clickedAt: clickedAt.toISOString(),
    ip: visitor.ip,
    userAgent: bot ? pick(r, BOT_AGENTS) : visitor.userAgent,
    referrer,
    acceptLanguage: visitor.acceptLanguage,
    query,
  };
}

/** Clicks of one day: weekly rhythm, slow growth, occasional campaign spikes. */
export function clicksOnDay(r: () => number, base: number, dayIndex: number, totalDays: number, date: Date): number {
  const weekday = date.getUTCDay();
  const weekly = [0.78, 1.05, 1.1, 1.08, 1.04, 0.98, 0.82][weekday];
  const growth = 0.8 + 0.4 * (dayIndex / Math.max(1, totalDays));
  const spike = r() < 0.03 ? 1.6 + r() * 0.8 : 1;
  const noise = 0.9 + r() * 0.2;
  return Math.max(0, Math.round(base * weekly * growth * spike * noise));
}

/** A second of the day, weighted towards daytime. */
export function timeOfDay(r: () => number): number {
  const hour = weighted(r, [
    [0, 2], [1, 1], [2, 1], [3, 1], [4, 1], [5, 2], [6, 3], [7, 5], [8, 6], [9, 6], [10, 6], [11, 6],
    [12, 7], [13, 7], [14, 6], [15, 6], [16, 6], [17, 6], [18, 7], [19, 8], [20, 8], [21, 7], [22, 5], [23, 3],
  ] as const);
  return hour * 3600 + Math.floor(r() * 3600);
}

export const CAMPAIGNS = [
  'Spring Collection', 'Summer Sale', 'Back to School', 'Black Friday', 'Holiday Gift Guide', 'Newsletter', 'App download',
  'Instagram bio', 'Podcast episode', 'Partner: Outdoorly', 'Careers', 'Store locator', 'Product launch', 'Webinar',
  'Referral program', 'Loyalty club', 'Flash sale', 'New arrivals', 'Clearance', 'Trail running guide',
];
