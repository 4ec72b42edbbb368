/**
 * The daily rollup table (`click_rollups`: organization, link, day, dimension,
 * value, clicks) is shared by link/project analytics, the overview, usage and the
 * monthly report. These are its dimensions and how each value is encoded. Bot
 * clicks are counted only under `bot`; every other dimension counts non-bot clicks.
 */
export const RollupDimension = {
  /** value '' : all non-bot clicks of the day */
  total: 'total',
  /** value '' : bot clicks of the day (left out of analytics and allowances) */
  bot: 'bot',
  /** value ISO 3166-1 alpha-2 code, '' when unknown */
  country: 'country',
  /** value `${countryCode}|${region}` */
  region: 'region',
  /** value `${countryCode}|${region}|${city}` */
  city: 'city',
  /** value IANA time zone, '' when unknown */
  timezone: 'timezone',
  /** value mobile | desktop | tablet */
  device: 'device',
  /** value iOS | Android | Windows | macOS | Linux | Other */
  platform: 'platform',
  /** value browser name */
  browser: 'browser',
  /** value OS name */
  os: 'os',
  /** value referrer host, else utm_source, else 'Direct' */
  source: 'source',
  /** value the A/B variant index ('0'..'9') of clicks that had one */
  variant: 'variant',
  /** value the redirect rule index ('0'..'19') of clicks a rule chose (no rule = total minus these) */
  rule: 'rule',
  /**
   * value '' : distinct non-bot visitors of the link that day (newly seen visitor
   * hashes of `click_daily_visitors`). Additive across days as "daily uniques".
   */
  visitors: 'visitors',
} as const;
export type RollupDimension = (typeof RollupDimension)[keyof typeof RollupDimension];

/**
 * Month rows: for the dimensions analytics summaries read, the same counts per
 * calendar month are kept under `month:<dimension>` with `day` = the month's first
 * day, so a 365-day summary reads ~12 month rows per value instead of 365 day
 * rows. Queries that filter on a plain dimension name never see them.
 */
export const MONTH_ROLLUP_PREFIX = 'month:';
export const MONTHLY_DIMENSIONS: readonly RollupDimension[] = [
  RollupDimension.total,
  RollupDimension.visitors,
  RollupDimension.country,
  RollupDimension.region,
  RollupDimension.city,
  RollupDimension.timezone,
  RollupDimension.device,
  RollupDimension.platform,
];

export function monthDimension(dimension: RollupDimension): string {
  return `${MONTH_ROLLUP_PREFIX}${dimension}`;
}

export const ROLLUP_SEPARATOR = '|';

export function encodeRollupValue(...parts: Array<string | null | undefined>): string {
  let value = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? '';
    value += (i ? ROLLUP_SEPARATOR : '') + (part.includes(ROLLUP_SEPARATOR) ? part.replaceAll(ROLLUP_SEPARATOR, ' ') : part);
  }
  return value;
}

export function decodeRollupValue(value: string): string[] {
  return value.split(ROLLUP_SEPARATOR);
}

