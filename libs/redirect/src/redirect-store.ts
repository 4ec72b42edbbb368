import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { createPgPool, endPgPool } from '@dl/platform/db';
import { RedirectLinkSnapshot, toRedirectSnapshot } from './redirect-link';

/** Columns of `links` the snapshot needs (see toRedirectSnapshot). */
const LINK_BY_CODE = `
  SELECT id, organization_id, short_code, original_url, ios_url, android_url, web_fallback_url,
         utm_parameters, targeting_rules, og_title, og_description, og_image_url, is_active, expires_at
  FROM links WHERE short_code = $1`;

const PIXEL_SITE_OF_ORG = 'SELECT 1 FROM pixel_sites WHERE organization_id = $1::uuid LIMIT 1';

interface LinkRow {
  id: string;
  organization_id: string;
  short_code: string;
  original_url: string;
  ios_url: string | null;
  android_url: string | null;
  web_fallback_url: string | null;
  utm_parameters: unknown;
  targeting_rules: unknown;
  og_title: string | null;
  og_description: string | null;
  og_image_url: string | null;
  is_active: boolean;
  expires_at: Date | null;
}

/**
 * The edge's only Postgres reads, on a small `pg` pool of its own (cache misses only: a hot
 * link never reaches it). The redirect process does not run Prisma queries: its query
 * compiler and the links library cost ~100 MB of resident memory for these two statements.
 */
@Injectable()
export class RedirectStore implements OnModuleDestroy {
  private readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Postgres unreachable: the miss fails (503 page) instead of waiting for a connection forever.
    this.pool = createPgPool(config.DATABASE_URL, { max: 4, connectionTimeoutMillis: 2_000 });
  }

  /** The link of a short code (the code space is global, so the read is not tenant-scoped), or null. */
  async findLink(shortCode: string): Promise<RedirectLinkSnapshot | null> {
    const { rows } = await this.pool.query<LinkRow>({ name: 'redirect-link-by-code', text: LINK_BY_CODE, values: [shortCode] });
    const r = rows[0];
    if (!r) return null;
    return toRedirectSnapshot({
      id: r.id,
      organizationId: r.organization_id,
      shortCode: r.short_code,
      originalUrl: r.original_url,
      iosUrl: r.ios_url,
      androidUrl: r.android_url,
      webFallbackUrl: r.web_fallback_url,
      utmParameters: r.utm_parameters,
      targetingRules: r.targeting_rules,
      ogTitle: r.og_title,
      ogDescription: r.og_description,
      ogImageUrl: r.og_image_url,
      isActive: r.is_active,
      expiresAt: r.expires_at,
    });
  }

  /** Does the organization have a pixel site (then web destinations carry `dl_click`)? */
  async hasPixelSite(organizationId: string): Promise<boolean> {
    const { rowCount } = await this.pool.query({ name: 'redirect-pixel-site', text: PIXEL_SITE_OF_ORG, values: [organizationId] });
    return (rowCount ?? 0) > 0;
  }

  /** `SELECT 1` for /health. */
  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async onModuleDestroy(): Promise<void> {
    await endPgPool(this.pool).catch(() => undefined);
  }
}
