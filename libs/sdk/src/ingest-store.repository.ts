import { Injectable } from '@nestjs/common';
import { clickIdTime } from '@dl/platform/click-codec';
import { Prisma, PrismaService } from '@dl/platform/db';
import { type InstallAttributedWebhookData, type PixelEventJob, type SdkInstallJob, type SdkOpenJob } from '@dl/platform/queue';

/** An install as stored: the fields its `install.attributed` webhook shows, and where it links. */
export interface StoredInstallRow extends Omit<InstallAttributedWebhookData, 'attributedAt' | 'link'> {
  linkId: string | null;
  attributedAt: Date | null;
  createdAt: Date;
  shortCode: string | null;
  projectId: string | null;
}

/** Attribution of an install as stored: what events inherit. */
export interface InstallLink {
  appId: string;
  installId: string;
  linkId: string | null;
  clickId: string | null;
}

/** Writes of the ingest worker: installs, sessions, pixel events (idempotent inserts). */
/**
 * For a UUIDv7 click id, `clicked_at` within a minute of the id's time (the edge makes both from
 * one clock reading): the lookup reads one monthly partition of `clicks` instead of all of them.
 */
function clickTimeBound(clickId: string | null | undefined): Prisma.Sql {
  const ms = clickId ? clickIdTime(clickId) : null;
  if (ms === null || !Number.isFinite(ms)) return Prisma.empty;
  return Prisma.sql`AND c.clicked_at >= ${new Date(ms - 60_000)} AND c.clicked_at < ${new Date(ms + 60_000)}`;
}

@Injectable()
export class IngestStoreRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** Inserts the install once per (app, installId); returns the stored row (new or earlier). */
  async saveInstall(organizationId: string, job: SdkInstallJob): Promise<StoredInstallRow | null> {
    const at = new Date(job.receivedAt);
    await this.prisma.$executeRaw(Prisma.sql`
      INSERT INTO installs (organization_id, app_id, install_id, platform, os_version, device_model, language, app_version,
                            ip_address, fingerprint, click_id, link_id, match_type, ambiguous, attributed_at, created_at)
      VALUES (${organizationId}::uuid, ${job.appId}::uuid, ${job.installId}::uuid, ${job.platform}, ${job.osVersion},
              ${job.deviceModel}, ${job.language}, ${job.appVersion}, ${job.ip}, ${job.fingerprint},
              ${job.clickId}::uuid, ${job.linkId}::uuid, ${job.matchType}, ${job.ambiguous},
              ${job.linkId ? at : null}::timestamptz, ${at})
      ON CONFLICT (app_id, install_id) DO NOTHING`);
    const rows = await this.prisma.$queryRaw<Array<{
      id: string; install_id: string; app_id: string; platform: string; os_version: string | null; device_model: string | null;
      app_version: string | null; click_id: string | null; link_id: string | null; match_type: string | null; ambiguous: boolean;
      attributed_at: Date | null; created_at: Date; short_code: string | null; project_id: string | null;
    }>>(Prisma.sql`
      SELECT i.id, i.install_id, i.app_id, i.platform, i.os_version, i.device_model, i.app_version, i.click_id, i.link_id,
             i.match_type, i.ambiguous, i.attributed_at, i.created_at, l.short_code, l.project_id
      FROM installs i LEFT JOIN links l ON l.id = i.link_id AND l.organization_id = i.organization_id
      WHERE i.organization_id = ${organizationId}::uuid AND i.app_id = ${job.appId}::uuid AND i.install_id = ${job.installId}::uuid`);
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.id, installId: r.install_id, appId: r.app_id, platform: r.platform, osVersion: r.os_version,
      deviceModel: r.device_model, appVersion: r.app_version, clickId: r.click_id, linkId: r.link_id,
      matchType: r.match_type, ambiguous: r.ambiguous, attributedAt: r.attributed_at, createdAt: r.created_at,
      shortCode: r.short_code, projectId: r.project_id,
    };
  }

  async saveSession(organizationId: string, job: SdkOpenJob): Promise<void> {
    await this.prisma.$executeRaw(Prisma.sql`
      INSERT INTO app_sessions (id, organization_id, app_id, install_id, url, opened_at)
      VALUES (${job.id}::uuid, ${organizationId}::uuid, ${job.appId}::uuid, ${job.installId}::uuid, ${job.url}, ${new Date(job.openedAt)})
      ON CONFLICT (id) DO NOTHING`);
  }

  /** Stores a pixel event; a `clickId` of this organization gives its link (read in its month's partition when the id is a v7). */
  async savePixelEvent(organizationId: string, job: PixelEventJob): Promise<void> {
    await this.prisma.$executeRaw(Prisma.sql`
      INSERT INTO pixel_events (id, organization_id, site_id, type, url, referrer, click_id, link_id, value, currency, occurred_at)
      VALUES (${job.id}::uuid, ${organizationId}::uuid, ${job.siteId}::uuid, ${job.type}::"PixelEventType", ${job.url}, ${job.referrer},
              ${job.clickId}::uuid,
              (SELECT c.link_id FROM clicks c WHERE c.id = ${job.clickId}::uuid AND c.organization_id = ${organizationId}::uuid ${clickTimeBound(job.clickId)}),
              ${job.value}::numeric, ${job.currency}, ${new Date(job.occurredAt)})
      ON CONFLICT (id) DO NOTHING`);
  }

  /** The link a stored pixel event was attributed to (through its click), if any. */
  async pixelEventLink(organizationId: string, id: string): Promise<string | null> {
    const rows = await this.prisma.$queryRaw<Array<{ link_id: string | null }>>(Prisma.sql`
      SELECT link_id FROM pixel_events WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid`);
    return rows[0]?.link_id ?? null;
  }

  /** Stored attribution of many installs of this organization (events inherit it). */
  async installLinks(organizationId: string, keys: Array<{ appId: string; installId: string }>): Promise<InstallLink[]> {
    if (!keys.length) return [];
    const rows = await this.prisma.$queryRaw<Array<{ app_id: string; install_id: string; link_id: string | null; click_id: string | null }>>(Prisma.sql`
      SELECT i.app_id, i.install_id, i.link_id, i.click_id
      FROM installs i
      JOIN unnest(${keys.map((k) => k.appId)}::uuid[], ${keys.map((k) => k.installId)}::uuid[]) AS k(app_id, install_id)
        ON i.app_id = k.app_id AND i.install_id = k.install_id
      WHERE i.organization_id = ${organizationId}::uuid`);
    return rows.map((r) => ({ appId: r.app_id, installId: r.install_id, linkId: r.link_id, clickId: r.click_id }));
  }

  /** `last_seen_at` of apps, at most one write a minute per app. */
  async touchApps(organizationId: string, appIds: string[], at: Date): Promise<void> {
    if (!appIds.length) return;
    await this.prisma.$executeRaw(Prisma.sql`
      UPDATE apps SET last_seen_at = ${at}
      WHERE organization_id = ${organizationId}::uuid AND id = ANY(${appIds}::uuid[])
        AND (last_seen_at IS NULL OR last_seen_at < ${at}::timestamptz - interval '1 minute')`);
  }

  async touchPixelSite(organizationId: string, siteId: string, at: Date): Promise<void> {
    await this.prisma.$executeRaw(Prisma.sql`
      UPDATE pixel_sites SET last_seen_at = ${at}
      WHERE organization_id = ${organizationId}::uuid AND id = ${siteId}::uuid
        AND (last_seen_at IS NULL OR last_seen_at < ${at}::timestamptz - interval '1 minute')`);
  }
}
