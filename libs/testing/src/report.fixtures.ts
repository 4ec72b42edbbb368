import { randomUUID } from 'node:crypto';
import { MONTHLY_DIMENSIONS, monthDimension, RollupDimension } from '@dl/clicks';
import { PrismaService, Role, Tier } from '@dl/platform/db';

/**
 * SQL fixtures for report tests and benchmarks: rows straight into the tables the
 * report reads (organizations, links, click_rollups, click_daily_visitors, installs,
 * sessions, events, pixel events), so every expected number is exact.
 */
export class ReportFixtures {
  constructor(private readonly prisma: PrismaService) {}

  async organization(opts: { name?: string; tier?: Tier; createdAt: Date }): Promise<{ id: string; slug: string }> {
    const id = randomUUID();
    const slug = `org-${id.slice(0, 8)}`;
    await this.prisma.$executeRaw`
      INSERT INTO organizations (id, name, slug, tier, created_at, updated_at)
      VALUES (${id}::uuid, ${opts.name ?? 'Acme Inc'}, ${slug}, ${opts.tier ?? Tier.PRO}::"Tier", ${opts.createdAt}, now())`;
    return { id, slug };
  }

  async member(organizationId: string, role: Role, email = `${role.toLowerCase()}-${randomUUID().slice(0, 6)}@example.com`, name = `${role[0]}${role.slice(1).toLowerCase()} User`): Promise<{ userId: string; email: string }> {
    const userId = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO users (id, email, name, password_hash) VALUES (${userId}::uuid, ${email}, ${name}, 'x')`;
    await this.prisma.$executeRaw`
      INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}::uuid, ${userId}::uuid, ${role}::"Role")`;
    return { userId, email };
  }

  private templates = new Map<string, { templateId: string; userId: string }>();

  private async owner(organizationId: string): Promise<{ templateId: string; userId: string }> {
    const known = this.templates.get(organizationId);
    if (known) return known;
    const existing = await this.prisma.membership.findFirst({ where: { organizationId, role: Role.OWNER } });
    const userId = existing?.userId ?? (await this.member(organizationId, Role.OWNER)).userId;
    const [tpl] = await this.prisma.$queryRaw<Array<{ id: string }>>`
      INSERT INTO templates (organization_id, name, slug) VALUES (${organizationId}::uuid, 'Default', 'default')
      ON CONFLICT (organization_id, slug) DO UPDATE SET name = templates.name RETURNING id`;
    const templateId = tpl.id;
    const v = { templateId, userId };
    this.templates.set(organizationId, v);
    return v;
  }

  async link(
    organizationId: string,
    opts: {
      shortCode?: string;
      title?: string | null;
      createdAt: Date;
      expiresAt?: Date | null;
      isActive?: boolean;
      iosUrl?: string | null;
      androidUrl?: string | null;
    },
  ): Promise<{ id: string; shortCode: string }> {
    const { templateId, userId } = await this.owner(organizationId);
    const id = randomUUID();
    const shortCode = opts.shortCode ?? `c${id.replace(/-/g, '').slice(0, 9)}`;
    await this.prisma.$executeRaw`
      INSERT INTO links (id, organization_id, user_id, template_id, short_code, original_url, title, is_active,
        expires_at, ios_url, android_url, created_at, updated_at)
      VALUES (${id}::uuid, ${organizationId}::uuid, ${userId}::uuid, ${templateId}::uuid, ${shortCode},
        'https://example.com/', ${opts.title ?? null}, ${opts.isActive ?? true}, ${opts.expiresAt ?? null},
        ${opts.iosUrl ?? null}, ${opts.androidUrl ?? null}, ${opts.createdAt}, ${opts.createdAt})`;
    return { id, shortCode };
  }

  /** Adds clicks to a rollup row (dimension 'total' unless given), and to its month row as the worker does. */
  async rollup(organizationId: string, linkId: string, day: string, clicks: number, dimension = 'total', value = ''): Promise<void> {
    const rows = [{ day, dimension }];
    if (MONTHLY_DIMENSIONS.includes(dimension as RollupDimension)) {
      rows.push({ day: `${day.slice(0, 7)}-01`, dimension: monthDimension(dimension as RollupDimension) });
    }
    for (const row of rows) {
      await this.prisma.$executeRaw`
        INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
        VALUES (${organizationId}::uuid, ${linkId}::uuid, ${row.day}::date, ${row.dimension}, ${value}, ${clicks})
        ON CONFLICT (link_id, day, dimension, value) DO UPDATE SET clicks = click_rollups.clicks + EXCLUDED.clicks`;
    }
  }

  async visitor(organizationId: string, linkId: string, day: string, visitorHash: string): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
      VALUES (${organizationId}::uuid, ${linkId}::uuid, ${day}::date, ${visitorHash}) ON CONFLICT DO NOTHING`;
  }

  async app(organizationId: string): Promise<string> {
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO apps (id, organization_id, name, platform, token_hash, token_prefix)
      VALUES (${id}::uuid, ${organizationId}::uuid, 'App', 'ios', ${randomUUID().replace(/-/g, '') + randomUUID().replace(/-/g, '')}, 'dla_x')`;
    return id;
  }

  async install(
    organizationId: string,
    appId: string,
    opts: { platform: string; createdAt: Date; linkId?: string | null; installId?: string },
  ): Promise<string> {
    const installId = opts.installId ?? randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO installs (organization_id, app_id, install_id, platform, link_id, match_type, created_at)
      VALUES (${organizationId}::uuid, ${appId}::uuid, ${installId}::uuid, ${opts.platform}, ${opts.linkId ?? null}::uuid,
        ${opts.linkId ? 'clickId' : null}, ${opts.createdAt})`;
    return installId;
  }

  async session(organizationId: string, appId: string, installId: string, openedAt: Date): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO app_sessions (organization_id, app_id, install_id, opened_at)
      VALUES (${organizationId}::uuid, ${appId}::uuid, ${installId}::uuid, ${openedAt})`;
  }

  async event(
    organizationId: string,
    appId: string,
    opts: { installId: string; name: string; at: Date; attributed?: boolean; revenue?: number; currency?: string; linkId?: string },
  ): Promise<void> {
    const data = opts.revenue !== undefined ? { revenue: opts.revenue, currency: opts.currency } : {};
    await this.prisma.$executeRaw`
      INSERT INTO in_app_events (organization_id, app_id, install_id, link_id, event_name, event_data, event_timestamp,
        revenue, currency, attributed)
      VALUES (${organizationId}::uuid, ${appId}::uuid, ${opts.installId}::uuid, ${opts.linkId ?? null}::uuid, ${opts.name},
        ${JSON.stringify(data)}::jsonb, ${opts.at}, ${opts.revenue ?? null}, ${opts.currency ?? null}, ${opts.attributed ?? true})`;
  }

  async pixelSite(organizationId: string): Promise<string> {
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO pixel_sites (id, organization_id, name, domain, site_key)
      VALUES (${id}::uuid, ${organizationId}::uuid, 'Site', 'example.com', ${'dlp_' + randomUUID().replace(/-/g, '')})`;
    return id;
  }

  async pixelEvent(
    organizationId: string,
    siteId: string,
    opts: { type: 'pageview' | 'conversion'; url: string; at: Date; value?: number; currency?: string; linkId?: string },
  ): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO pixel_events (organization_id, site_id, type, url, link_id, value, currency, occurred_at)
      VALUES (${organizationId}::uuid, ${siteId}::uuid, ${opts.type}::"PixelEventType", ${opts.url}, ${opts.linkId ?? null}::uuid,
        ${opts.value ?? null}, ${opts.currency ?? null}, ${opts.at})`;
  }
}
