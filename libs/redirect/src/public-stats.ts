import { Inject, Injectable, Module, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { escapeHtml } from './pages';
import { PublicStatsDto } from './public-stats.dto';

export const PUBLIC_STATS_DAYS = 30;
/** How long an answer (or a "no such public link") is reused. */
export const PUBLIC_STATS_TTL_MS = 60_000;
const MAX_CACHED = 10_000;

const LINK = `
  SELECT id, short_code, title, click_count FROM links
  WHERE domain_name = $1 AND short_code = $2 AND public_stats AND is_active`;
const DIMENSIONS = `
  SELECT dimension, value, sum(clicks)::int AS clicks FROM click_rollups
  WHERE link_id = $1::uuid AND day BETWEEN $2::date AND $3::date AND dimension IN ('country', 'device')
  GROUP BY dimension, value`;
const DAILY = `
  SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(clicks)::int AS clicks FROM click_rollups
  WHERE link_id = $1::uuid AND day BETWEEN $2::date AND $3::date AND dimension = 'total'
  GROUP BY day`;

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
const countryName = (code: string) => {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
};
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Public stats of links whose owner turned `publicStats` on, by host and code. A link that
 * is unknown, inactive, deleted or private answers null, exactly like a missing one. Answers
 * are kept 60 s per process (both hits and misses), so a popular stats page costs Postgres
 * at most one read a minute per instance; its own small pool (the replica when configured)
 * keeps it off the redirect's link reads.
 */
@Injectable()
export class PublicStatsService implements OnModuleDestroy {
  private readonly pool: Pool;
  private readonly cache = new Map<string, { at: number; value: Promise<PublicStatsDto | null> }>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.pool = createPgPool(config.DATABASE_READ_URL || config.DATABASE_URL, { max: 2, connectionTimeoutMillis: 2_000 });
  }

  /** `domainName` '' = the service's own host. */
  find(domainName: string, shortCode: string, now = Date.now()): Promise<PublicStatsDto | null> {
    const key = `${domainName}/${shortCode}`;
    const hit = this.cache.get(key);
    if (hit && now - hit.at < PUBLIC_STATS_TTL_MS) return hit.value;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    const value = this.load(domainName, shortCode, now);
    this.cache.set(key, { at: now, value });
    // A failed read is not remembered: the next visitor tries again.
    value.catch(() => this.cache.get(key)?.value === value && this.cache.delete(key));
    return value;
  }

  private async load(domainName: string, shortCode: string, now: number): Promise<PublicStatsDto | null> {
    if (shortCode.length > 64 || domainName.length > 253) return null;
    const link = (await this.pool.query<{ id: string; short_code: string; title: string | null; click_count: number }>(LINK, [domainName, shortCode]))
      .rows[0];
    if (!link) return null;
    const today = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth(), new Date(now).getUTCDate());
    const days = Array.from({ length: PUBLIC_STATS_DAYS }, (_, i) => isoDay(today - (PUBLIC_STATS_DAYS - 1 - i) * 86_400_000));
    const [dims, daily] = await Promise.all([
      this.pool.query<{ dimension: string; value: string; clicks: number }>(DIMENSIONS, [link.id, days[0], days[days.length - 1]]),
      this.pool.query<{ day: string; clicks: number }>(DAILY, [link.id, days[0], days[days.length - 1]]),
    ]);
    const perDay = new Map(daily.rows.map((r) => [r.day, r.clicks]));
    const byClicks = <T extends { clicks: number }>(key: (x: T) => string) => (a: T, b: T) => b.clicks - a.clicks || key(a).localeCompare(key(b));
    const countries = new Map<string, number>();
    const devices = new Map<string, number>();
    for (const r of dims.rows) {
      if (r.dimension === 'country' && /^[A-Z]{2}$/.test(r.value)) countries.set(r.value, (countries.get(r.value) ?? 0) + r.clicks);
      if (r.dimension === 'device' && r.value) devices.set(r.value, (devices.get(r.value) ?? 0) + r.clicks);
    }
    return {
      shortCode: link.short_code,
      title: link.title,
      totalClicks: link.click_count,
      clicksByDate: days.map((date) => ({ date, clicks: perDay.get(date) ?? 0 })),
      clicksByCountry: [...countries]
        .map(([countryCode, clicks]) => ({ countryCode, country: countryName(countryCode), clicks }))
        .sort(byClicks((x) => x.countryCode)),
      clicksByDevice: [...devices].map(([device, clicks]) => ({ device, clicks })).sort(byClicks((x) => x.device)),
    };
  }

  onModuleDestroy(): Promise<void> {
    return endPgPool(this.pool);
  }
}

@Module({ providers: [PublicStatsService], exports: [PublicStatsService] })
export class PublicStatsModule {}

const STATS_STYLE =
  'body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7f9;color:#1f2933}' +
  'main{max-width:44rem;margin:2rem auto;padding:2rem;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.08)}' +
  'h1{font-size:1.4rem;margin:0 0 .25rem;overflow-wrap:anywhere}.code{color:#7b8794;font-weight:600;overflow-wrap:anywhere}' +
  '.total{font-size:2.5rem;font-weight:700;margin:1rem 0 0}.label{color:#52606d;font-size:.9rem}' +
  'h2{font-size:1rem;margin:1.5rem 0 .5rem}svg{width:100%;height:auto;display:block}rect{fill:#2563eb}' +
  'table{width:100%;border-collapse:collapse}td{padding:.3rem 0;border-bottom:1px solid #e4e7eb}td.n{text-align:right;font-variant-numeric:tabular-nums}' +
  '.grid{display:grid;grid-template-columns:1fr 1fr;gap:2rem}@media (max-width:600px){.grid{grid-template-columns:1fr}}' +
  '@media (prefers-color-scheme:dark){body{background:#12161c;color:#e4e7eb}main{background:#1c2128}td{border-color:#3e4c59}.label{color:#9aa5b1}}';

const number = (n: number) => n.toLocaleString('en-US');

/** The 30-day bar chart as inline SVG (no script, no external resource). */
function chart(days: PublicStatsDto['clicksByDate']): string {
  const w = 600;
  const h = 160;
  const max = Math.max(1, ...days.map((d) => d.clicks));
  const bar = w / days.length;
  const bars = days
    .map((d, i) => {
      const bh = Math.round((d.clicks / max) * (h - 20));
      return `<rect x="${(i * bar + 1).toFixed(1)}" y="${h - bh}" width="${(bar - 2).toFixed(1)}" height="${bh}"><title>${d.date}: ${number(d.clicks)}</title></rect>`;
    })
    .join('');
  const first = days[0]?.date ?? '';
  const last = days[days.length - 1]?.date ?? '';
  return (
    `<svg viewBox="0 0 ${w} ${h + 20}" role="img" aria-label="Clicks per day, ${first} to ${last}">${bars}` +
    `<text x="0" y="${h + 16}" font-size="12" fill="currentColor">${first}</text>` +
    `<text x="${w}" y="${h + 16}" font-size="12" text-anchor="end" fill="currentColor">${last}</text></svg>`
  );
}

function table(rows: Array<[string, number]>, empty: string): string {
  if (!rows.length) return `<p class="label">${empty}</p>`;
  return `<table>${rows.map(([name, n]) => `<tr><td>${escapeHtml(name)}</td><td class="n">${number(n)}</td></tr>`).join('')}</table>`;
}

/** The `/<code>+` page: total clicks, the 30-day chart, top 5 countries, devices. */
export function publicStatsPage(stats: PublicStatsDto, shortUrl: string): string {
  const heading = escapeHtml(stats.title ?? shortUrl);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">' +
    `<title>Stats: ${heading}</title><style>${STATS_STYLE}</style></head><body><main>` +
    `<h1>${heading}</h1><div class="code">${escapeHtml(shortUrl)}</div>` +
    `<p class="total">${number(stats.totalClicks)}</p><div class="label">total clicks</div>` +
    `<h2>Last ${PUBLIC_STATS_DAYS} days</h2>${chart(stats.clicksByDate)}` +
    '<div class="grid"><section><h2>Top countries</h2>' +
    table(stats.clicksByCountry.slice(0, 5).map((c) => [c.country, c.clicks]), 'No clicks with a known country yet') +
    '</section><section><h2>Devices</h2>' +
    table(stats.clicksByDevice.map((d) => [d.device, d.clicks]), 'No clicks yet') +
    '</section></div></main></body></html>'
  );
}
