import { randomBytes, randomUUID } from 'node:crypto';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CLICK_BATCH_SIZE, ClickPipeline, ClicksModule } from '@dl/clicks';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { AppConfig, ConfigModule } from '@dl/platform/config';
import { DbModule, PrismaService } from '@dl/platform/db';
import { QueueModule } from '@dl/platform/queue';
import { RedisModule } from '@dl/platform/redis';
import { ProgressBar } from './progress';
import { CAMPAIGNS, Channel, CHANNELS, clicksOnDay, pick, rawClick, rng, SeedLink, timeOfDay, visitorPool, weighted } from './traffic';

const DAY_MS = 86_400_000;
/** Clicks per `store` call, and calls in flight: a batch of the pipeline each, enough to keep it busy. */
const BATCH = CLICK_BATCH_SIZE;
const CONCURRENCY = 3;

export interface DemoSeedOptions {
  organizationId: string;
  /** Whole calendar months back from the start of this month (`demo:seed --months`)… */
  months: number;
  /** …or, when set, exactly this many days up to now (`npm start`'s first-start history). */
  days?: number;
  /** Progress bars on stderr (default true). */
  progress?: boolean;
  links: number;
  clicksPerDay: number;
  now?: Date;
  seed?: number;
}

export interface DemoSeedResult {
  links: number;
  clicks: number;
  installs: number;
  events: number;
}

/** The services demo:seed needs: the click pipeline (enrichment, batching, rollups) and Postgres. */
export async function createSeedContext(config: AppConfig): Promise<{ app: INestApplicationContext; prisma: PrismaService; pipeline: ClickPipeline }> {
  @Module({ imports: [ConfigModule.forRoot(config), DbModule, RedisModule, QueueModule, ClicksModule] })
  class DemoSeedModule {}
  const app = await NestFactory.createApplicationContext(DemoSeedModule, { logger: false, abortOnError: false });
  await app.init();
  return { app, prisma: app.get(PrismaService), pipeline: app.get(ClickPipeline) };
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const shortCode = () => Array.from(randomBytes(7), (b) => BASE62[b % 62]).join('');
const hex = (n: number) => randomBytes(n).toString('hex');

/**
 * Seeds realistic past traffic for an organization (decisions §2 `demo:seed`):
 * links, clicks through the click pipeline as live traffic goes (user agents,
 * GeoLite2 addresses, referrers, UTM), SDK installs/sessions/events with revenue and pixel
 * events; moves the organization's creation date back to the start of the range.
 */
export async function demoSeed(
  prisma: PrismaService,
  pipeline: ClickPipeline,
  opts: DemoSeedOptions,
): Promise<DemoSeedResult> {
  const now = opts.now ?? new Date();
  const r = rng(opts.seed ?? 20261122);
  const orgId = opts.organizationId;
  const start = opts.days
    ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - opts.days + 1))
    : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - opts.months, 1));
  const progress = opts.progress ?? true;
  const totalDays = Math.floor((now.getTime() - start.getTime()) / DAY_MS) + 1;

  // Owner and `default` template (signup creates both; created here if missing).
  const owner = await prisma.membership.findFirst({ where: { organizationId: orgId, role: 'OWNER' }, orderBy: { createdAt: 'asc' } });
  if (!owner) throw new Error('The organization has no owner');
  const [template] = await prisma.$queryRaw<Array<{ id: string }>>`
    INSERT INTO templates (organization_id, name, slug) VALUES (${orgId}::uuid, 'Default', 'default')
    ON CONFLICT (organization_id, slug) DO UPDATE SET name = templates.name RETURNING id`;

  // Links: most exist from the start, the rest appear over the range; a few expire or are paused.
  const channels = Object.keys(CHANNELS) as Channel[];
  const links: SeedLink[] = [];
  for (let i = 0; i < opts.links; i++) {
    const campaign = CAMPAIGNS[i % CAMPAIGNS.length] + (i >= CAMPAIGNS.length ? ` ${Math.floor(i / CAMPAIGNS.length) + 1}` : '');
    const createdAt = i < opts.links * 0.6 ? start : new Date(start.getTime() + ((i / opts.links) ** 2) * (now.getTime() - start.getTime()) * 0.9);
    const channel = channels[i % channels.length];
    const id = randomUUID();
    const code = shortCode();
    const slug = campaign.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const store = i % 4 === 0;
    const expiresAt = i % 9 === 8 ? new Date(createdAt.getTime() + (now.getTime() - createdAt.getTime()) * 0.6) : null;
    await prisma.$executeRaw`
      INSERT INTO links (id, organization_id, user_id, template_id, short_code, original_url, title, ios_url, android_url,
        utm_parameters, is_active, expires_at, created_at, updated_at)
      VALUES (${id}::uuid, ${orgId}::uuid, ${owner.userId}::uuid, ${template.id}::uuid, ${code},
        ${`https://www.northwind.example/${slug}`}, ${i % 7 === 6 ? null : campaign},
        ${store ? 'https://apps.apple.com/app/id1234567890' : null}, ${store ? 'https://play.google.com/store/apps/details?id=com.northwind.app' : null},
        ${JSON.stringify({ source: CHANNELS[channel].utm ?? 'google', medium: 'social', campaign: slug })}::jsonb,
        ${i % 11 !== 10}, ${expiresAt}, ${createdAt}, ${createdAt})`;
    links.push({ id, shortCode: code, createdAt, channel, campaign: slug, weight: 1 / (i + 1) ** 0.9 });
  }

  // Clicks, day by day, through the click pipeline (calls of up to BATCH clicks, a few in flight).
  const visitors = visitorPool(r, Math.max(200, Math.round(opts.clicksPerDay * 6)));
  const perDay = Array.from({ length: totalDays }, (_, d) => {
    const date = new Date(start.getTime() + d * DAY_MS);
    const n = clicksOnDay(r, opts.clicksPerDay, d, totalDays, date);
    // Today only up to now.
    return d === totalDays - 1 ? Math.round(n * ((now.getTime() - date.getTime()) / DAY_MS)) : n;
  });
  const totalClicks = perDay.reduce((s, n) => s + n, 0);
  const bar = new ProgressBar(totalClicks, 'clicks', progress);
  let done = 0;
  const insertedBefore = pipeline.totals.inserted;
  const inFlight = new Set<Promise<void>>();
  const send = async (batch: ClickCapturedJob[]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await pipeline.store(batch);
        break;
      } catch (err) {
        // Concurrent batches update the same link counters: retry a deadlock or serialization
        // failure (a click stored before is not stored again).
        if (attempt < 5 && /deadlock|could not serialize|40P01|40001/i.test(String(err))) continue;
        throw err;
      }
    }
    done += batch.length;
    bar.update(done);
  };
  let batch: ClickCapturedJob[] = [];
  const flush = async () => {
    if (!batch.length) return;
    const p = send(batch).finally(() => inFlight.delete(p));
    inFlight.add(p);
    batch = [];
    if (inFlight.size >= CONCURRENCY) await Promise.race(inFlight);
  };
  for (let d = 0; d < totalDays; d++) {
    const date = new Date(start.getTime() + d * DAY_MS);
    const live = links.filter((l) => l.createdAt.getTime() <= date.getTime() + DAY_MS);
    const pool = live.map((l) => [l, l.weight] as const);
    for (let k = 0; k < perDay[d]; k++) {
      let at = new Date(date.getTime() + timeOfDay(r) * 1000);
      if (at > now) at = new Date(now.getTime() - Math.floor(r() * 3600_000));
      batch.push(rawClick(r, orgId, weighted(r, pool), pick(r, visitors), at));
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  await Promise.all(inFlight);
  const inserted = pipeline.totals.inserted - insertedBefore;
  bar.done(`${inserted.toLocaleString('en-US')} clicks stored`);

  const streams = await seedStreams(prisma, orgId, start, now, Math.round(totalClicks * 0.02), progress);

  await prisma.$executeRaw`
    UPDATE organizations SET created_at = LEAST(created_at, ${start}) WHERE id = ${orgId}::uuid`;
  return { links: links.length, clicks: inserted, ...streams };
}

/** SDK installs (70% attributed to a real seeded click), sessions, events with revenue, pixel events: set-based SQL. */
async function seedStreams(
  prisma: PrismaService,
  orgId: string,
  start: Date,
  now: Date,
  installTarget: number,
  progress: boolean,
): Promise<{ installs: number; events: number }> {
  const bar = new ProgressBar(4, 'apps, installs, events, pixel', progress);
  const appIds: Record<'ios' | 'android', string> = { ios: '', android: '' };
  for (const platform of ['ios', 'android'] as const) {
    const existing = await prisma.app.findFirst({ where: { organizationId: orgId, platform, revokedAt: null } });
    appIds[platform] =
      existing?.id ??
      (
        await prisma.app.create({
          data: {
            organizationId: orgId,
            name: platform === 'ios' ? 'Northwind for iPhone' : 'Northwind for Android',
            platform,
            bundleId: platform === 'ios' ? 'com.northwind.app' : null,
            packageName: platform === 'android' ? 'com.northwind.app' : null,
            tokenHash: hex(32),
            tokenPrefix: `dla_${hex(4)}`,
          },
        })
      ).id;
  }
  bar.update(1);
  const attributed = Math.round(installTarget * 0.7);
  const organic = installTarget - attributed;
  const installs = await prisma.$queryRaw<Array<{ n: number }>>`
    WITH picked AS (
      SELECT id, link_id, clicked_at, platform, os_version, language, ip_address, fingerprint FROM clicks
      WHERE organization_id = ${orgId}::uuid AND NOT is_bot AND platform IN ('iOS', 'Android')
        AND clicked_at >= ${start} AND clicked_at < ${now}
      ORDER BY random() LIMIT ${attributed}
    ), ins AS (
      INSERT INTO installs (organization_id, app_id, install_id, platform, os_version, device_model, language, app_version,
        ip_address, fingerprint, click_id, link_id, match_type, attributed_at, created_at)
      SELECT ${orgId}::uuid, CASE WHEN p.platform = 'iOS' THEN ${appIds.ios}::uuid ELSE ${appIds.android}::uuid END,
        gen_random_uuid(), lower(p.platform), p.os_version,
        CASE WHEN p.platform = 'iOS' THEN (ARRAY['iPhone15,3','iPhone16,1','iPhone14,5'])[1 + floor(random() * 3)::int]
             ELSE (ARRAY['Pixel 8','SM-S921B','SM-A536B'])[1 + floor(random() * 3)::int] END,
        p.language, '4.' || floor(random() * 6)::int || '.0', p.ip_address, p.fingerprint, p.id, p.link_id,
        CASE WHEN random() < 0.6 THEN 'clickId' ELSE 'fingerprint' END, t.at, t.at
      FROM picked p CROSS JOIN LATERAL (SELECT LEAST(p.clicked_at + random() * interval '3 hours', ${now}::timestamptz) AS at) t
      UNION ALL
      SELECT ${orgId}::uuid, CASE WHEN g % 5 < 3 THEN ${appIds.ios}::uuid ELSE ${appIds.android}::uuid END, gen_random_uuid(),
        CASE WHEN g % 5 < 3 THEN 'ios' ELSE 'android' END, NULL, NULL, 'en', '4.2.0', NULL, NULL, NULL, NULL, NULL, NULL,
        ${start}::timestamptz + random() * (${now}::timestamptz - ${start}::timestamptz)
      FROM generate_series(1, ${organic}) g
      RETURNING install_id, app_id, link_id, created_at
    ), sessions AS (
      INSERT INTO app_sessions (organization_id, app_id, install_id, url, opened_at)
      SELECT ${orgId}::uuid, i.app_id, i.install_id, NULL, s.at
      FROM ins i CROSS JOIN LATERAL (
        SELECT i.created_at + random() * LEAST(interval '45 days', ${now}::timestamptz - i.created_at) AS at
        FROM generate_series(1, 1 + floor(random() * 8)::int)
      ) s
    )
    SELECT COUNT(*)::int AS n FROM ins`;
  bar.update(2);
  const events = await prisma.$queryRaw<Array<{ n: number }>>`
    WITH ev AS (
      SELECT i.organization_id, i.app_id, i.install_id, i.link_id, i.click_id,
        (ARRAY['view_item','view_item','view_item','add_to_cart','add_to_cart','begin_checkout','share','level_up','revenue'])[1 + floor(random() * 9)::int] AS name,
        i.created_at + random() * LEAST(interval '30 days', ${now}::timestamptz - i.created_at) AS at
      FROM installs i CROSS JOIN LATERAL (
        -- Correlated on purpose, so the count is drawn per install (an uncorrelated call runs once).
        SELECT g FROM generate_series(1, 2 + floor(random() * 10 + 0 * extract(epoch FROM i.created_at))::int) g
      ) n
      WHERE i.organization_id = ${orgId}::uuid AND i.created_at >= ${start}
    ), priced AS (
      SELECT ev.*, CASE WHEN name = 'revenue' THEN round((0.99 + random() * 79)::numeric, 2) END AS revenue,
        CASE WHEN name = 'revenue' THEN (ARRAY['USD','USD','USD','USD','USD','USD','EUR','EUR','GBP'])[1 + floor(random() * 9)::int] END AS currency
      FROM ev
    ), ins AS (
      INSERT INTO in_app_events (organization_id, app_id, install_id, link_id, click_id, event_name, event_data, event_timestamp,
        revenue, currency, attributed)
      SELECT organization_id, app_id, install_id, link_id, click_id, name,
        CASE WHEN name = 'revenue' THEN jsonb_build_object('revenue', revenue, 'currency', currency, 'sku', 'SKU-' || floor(random() * 40)::int)
             WHEN name IN ('view_item', 'add_to_cart') THEN jsonb_build_object('sku', 'SKU-' || floor(random() * 40)::int)
             ELSE '{}'::jsonb END,
        at, revenue, currency, link_id IS NOT NULL
      FROM priced
      RETURNING organization_id, event_name, event_timestamp, revenue, attributed
    ), daily AS (
      INSERT INTO in_app_event_daily (organization_id, day, event_name, events, revenue, last_occurred)
      SELECT organization_id, (event_timestamp AT TIME ZONE 'UTC')::date, event_name, COUNT(*), COALESCE(SUM(revenue), 0), MAX(event_timestamp)
      FROM ins WHERE attributed GROUP BY 1, 2, 3
      ON CONFLICT (organization_id, day, event_name) DO UPDATE SET
        events = in_app_event_daily.events + EXCLUDED.events,
        revenue = in_app_event_daily.revenue + EXCLUDED.revenue,
        last_occurred = GREATEST(in_app_event_daily.last_occurred, EXCLUDED.last_occurred)
    )
    SELECT COUNT(*)::int AS n FROM ins`;
  bar.update(3);
  const site =
    (await prisma.pixelSite.findFirst({ where: { organizationId: orgId } })) ??
    (await prisma.pixelSite.create({
      data: { organizationId: orgId, name: 'northwind.example', domain: 'www.northwind.example', siteKey: `dlp_${hex(16)}` },
    }));
  await prisma.$executeRaw`
    WITH web AS (
      SELECT c.id, c.link_id, c.clicked_at, c.referrer, l.original_url FROM clicks c JOIN links l ON l.id = c.link_id
      WHERE c.organization_id = ${orgId}::uuid AND NOT c.is_bot AND c.clicked_at >= ${start}
        AND c.platform IN ('Windows', 'macOS', 'Linux') AND random() < 0.35
    )
    INSERT INTO pixel_events (organization_id, site_id, type, url, referrer, click_id, link_id, value, currency, occurred_at)
    SELECT ${orgId}::uuid, ${site.id}::uuid, 'pageview'::"PixelEventType", original_url, referrer, id, link_id, NULL, NULL, clicked_at + interval '2 seconds'
    FROM web
    UNION ALL
    SELECT ${orgId}::uuid, ${site.id}::uuid, 'conversion'::"PixelEventType", 'https://www.northwind.example/checkout/thanks', NULL, id, link_id,
      round((15 + random() * 140)::numeric, 2), 'USD', clicked_at + random() * interval '20 minutes'
    FROM web WHERE random() < 0.04`;
  bar.done('streams seeded');
  return { installs: installs[0].n, events: events[0].n };
}
