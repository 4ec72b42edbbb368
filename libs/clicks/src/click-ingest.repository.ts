import { Injectable } from '@nestjs/common';
import { PrismaService, PrismaTx } from '@dl/platform/db';
import { EnrichedClick } from './enrich';
import { RollupRow, VisitorRow } from './rollups';

export interface ClickedLink {
  id: string;
  organizationId: string;
  shortCode: string;
  projectId: string | null;
  migrationMetadata: unknown;
}

/**
 * SQL of the click pipeline's write side. Each method is one multi-row statement
 * (unnest of arrays), run inside the batch's transaction. Rows of several
 * organizations share a batch; each row carries its organization id and links
 * are matched on (id, organization_id).
 */
@Injectable()
export class ClickIngestRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 60_000, maxWait: 30_000 });
  }

  /**
   * Keys `${linkId}|${organizationId}` of the given pairs that exist, locked against a
   * concurrent delete for the rest of the transaction (a click of a deleted link
   * is dropped, never left orphaned).
   */
  async existingLinks(tx: PrismaTx, pairs: Array<{ linkId: string; organizationId: string }>): Promise<Set<string>> {
    if (!pairs.length) return new Set();
    const rows = await tx.$queryRaw<Array<{ key: string }>>`
      SELECT l.id::text || '|' || l.organization_id::text AS key
      FROM links l
      JOIN unnest(${pairs.map((p) => p.linkId)}::uuid[], ${pairs.map((p) => p.organizationId)}::uuid[]) AS p(link_id, organization_id)
        ON l.id = p.link_id AND l.organization_id = p.organization_id
      ORDER BY l.id
      FOR KEY SHARE OF l`;
    return new Set(rows.map((r) => r.key));
  }

  /** Inserts the clicks; returns the ids actually inserted (a replayed id inserts nothing). */
  async insertClicks(tx: PrismaTx, clicks: EnrichedClick[]): Promise<Set<string>> {
    if (!clicks.length) return new Set();
    const col = <K extends keyof EnrichedClick>(k: K) => clicks.map((c) => c[k]);
    const rows = await tx.$queryRaw<Array<{ id: string }>>`
      INSERT INTO clicks (
        id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer, referrer_host,
        accept_language, language, device_type, platform, browser, browser_version, os, os_version,
        country_code, country_name, region, city, timezone, latitude, longitude,
        utm_source, utm_medium, utm_campaign, utm_term, utm_content, is_bot, visitor_hash, fingerprint)
      SELECT * FROM unnest(
        ${col('id')}::uuid[], ${col('organizationId')}::uuid[], ${col('linkId')}::uuid[],
        ${clicks.map((c) => c.clickedAt.toISOString())}::timestamptz[],
        ${col('ipAddress')}::text[], ${col('userAgent')}::text[], ${col('referrer')}::text[], ${col('referrerHost')}::text[],
        ${col('acceptLanguage')}::text[], ${col('language')}::text[], ${col('deviceType')}::text[], ${col('platform')}::text[],
        ${col('browser')}::text[], ${col('browserVersion')}::text[], ${col('os')}::text[], ${col('osVersion')}::text[],
        ${col('countryCode')}::text[], ${col('countryName')}::text[], ${col('region')}::text[], ${col('city')}::text[],
        ${col('timezone')}::text[], ${col('latitude')}::float8[], ${col('longitude')}::float8[],
        ${col('utmSource')}::text[], ${col('utmMedium')}::text[], ${col('utmCampaign')}::text[], ${col('utmTerm')}::text[],
        ${col('utmContent')}::text[], ${col('isBot')}::boolean[], ${col('visitorHash')}::text[], ${col('fingerprint')}::text[])
      ON CONFLICT (id) DO NOTHING
      RETURNING id::text AS id`;
    return new Set(rows.map((r) => r.id));
  }

  /** Records daily visitors; returns the (link, day, visitor) rows seen for the first time. */
  async insertDailyVisitors(tx: PrismaTx, rows: VisitorRow[]): Promise<VisitorRow[]> {
    if (!rows.length) return [];
    const inserted = await tx.$queryRaw<Array<{ link_id: string; day: string; visitor_hash: string }>>`
      INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
      SELECT * FROM unnest(
        ${rows.map((r) => r.organizationId)}::uuid[], ${rows.map((r) => r.linkId)}::uuid[],
        ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.visitorHash)}::text[])
      ON CONFLICT (link_id, day, visitor_hash) DO NOTHING
      RETURNING link_id::text AS link_id, to_char(day, 'YYYY-MM-DD') AS day, visitor_hash`;
    const key = (linkId: string, day: string, hash: string) => `${linkId}|${day}|${hash}`;
    const seen = new Set(inserted.map((r) => key(r.link_id, r.day, r.visitor_hash)));
    return rows.filter((r) => seen.has(key(r.linkId, r.day, r.visitorHash)));
  }

  /** Adds the batch's counts to the daily rollups (rows pre-aggregated and sorted). */
  async upsertRollups(tx: PrismaTx, rows: RollupRow[]): Promise<void> {
    if (!rows.length) return;
    await tx.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      SELECT * FROM unnest(
        ${rows.map((r) => r.organizationId)}::uuid[], ${rows.map((r) => r.linkId)}::uuid[],
        ${rows.map((r) => r.day)}::date[], ${rows.map((r) => r.dimension)}::text[],
        ${rows.map((r) => r.value)}::text[], ${rows.map((r) => r.clicks)}::int[])
      ON CONFLICT (link_id, day, dimension, value) DO UPDATE SET clicks = click_rollups.clicks + EXCLUDED.clicks`;
  }

  /** Adds non-bot clicks to the links' counters; returns what a `link.clicked` event needs. */
  async incrementLinkCounts(tx: PrismaTx, counts: Array<{ linkId: string; clicks: number }>): Promise<ClickedLink[]> {
    if (!counts.length) return [];
    const rows = await tx.$queryRaw<
      Array<{ id: string; organization_id: string; short_code: string; project_id: string | null; migration_metadata: unknown }>
    >`
      UPDATE links l SET click_count = l.click_count + d.n
      FROM unnest(${counts.map((c) => c.linkId)}::uuid[], ${counts.map((c) => c.clicks)}::int[]) AS d(id, n)
      WHERE l.id = d.id
      RETURNING l.id::text AS id, l.organization_id::text AS organization_id, l.short_code, l.project_id::text AS project_id, l.migration_metadata`;
    return rows.map((r) => ({
      id: r.id,
      organizationId: r.organization_id,
      shortCode: r.short_code,
      projectId: r.project_id,
      migrationMetadata: r.migration_metadata,
    }));
  }

  /** Of these organizations, those with an active webhook subscribed to `event`. */
  async organizationsWithWebhook(organizationIds: string[], event: string): Promise<Set<string>> {
    if (!organizationIds.length) return new Set();
    const rows = await this.prisma.$queryRaw<Array<{ organization_id: string }>>`
      SELECT DISTINCT organization_id::text AS organization_id FROM webhooks
      WHERE organization_id = ANY(${organizationIds}::uuid[]) AND is_active AND ${event} = ANY(events)`;
    return new Set(rows.map((r) => r.organization_id));
  }
}

