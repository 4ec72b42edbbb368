import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { Prisma, PrismaService, PrismaTx } from '@dl/platform/db';
import { RECORD_SELECT, LinkRow, rowToRecord, sqlValue, VALUE_COLUMNS } from './link-columns';
import { LinkRecord, LinkValues, MigrationMetadata, NewLinkRow } from './link.types';
import { isUuid } from '@dl/platform/validation';
import { LinksPg } from './links-pg';
import { LinkListFilter, LinkListPage } from './link-list';
import { ProjectNotFoundError, TemplateNotFoundError } from './links.errors';

type Db = PrismaService | PrismaTx;

/** What a grouped insert answers for one row: its record, null (code taken), or its own error. */
type GroupedInsert = { link: LinkRecord | null } | { err: unknown };

/** Concurrent grouped INSERTs (the links pool has 4 connections; the rest is for other queries). */
const GROUPED_INSERTS_IN_FLIGHT = 2;

export interface TemplateRef {
  id: string;
  slug: string;
  defaults: unknown;
}

/** A patch of an existing link: editable values plus state and references. */
export type LinkPatch = Partial<LinkValues> & {
  isActive?: boolean;
  templateId?: string;
  projectId?: string | null;
  migrationMetadata?: MigrationMetadata | null;
  /** Moving to another domain: both set together. */
  domainId?: string | null;
  domainName?: string;
  safetyStatus?: 'ok' | 'suspicious' | 'blocked';
  safetyReason?: string | null;
  safetyCheckedAt?: Date | null;
};

/** Columns an insert writes, in order (the domain is chosen by the statement, see insertLinks). */
const INSERT_COLUMNS = [
  'id', 'organization_id', 'user_id', 'project_id', 'template_id', 'domain_id', 'domain_name', 'short_code', 'migration_metadata', 'created_at',
  'safety_status', 'safety_reason', 'safety_checked_at',
  ...Object.values(VALUE_COLUMNS).map(([c]) => c),
];
const INSERT_SELECT = INSERT_COLUMNS.map((c) =>
  c === 'domain_id'
    ? 'CASE WHEN r.domain_name IS NULL THEN d.id ELSE r.domain_id END'
    : c === 'domain_name'
      ? "CASE WHEN r.domain_name IS NULL THEN coalesce(d.domain, '') ELSE r.domain_name END"
      : c === 'created_at'
        ? 'coalesce(r.created_at, now())'
        : `r.${c}`,
).join(', ');
/**
 * The one insert of new links: rows travel as one JSON parameter expanded by Postgres
 * (json_populate_recordset over the table's own row type). A row without a domain
 * (`domain_name` null) goes on the organization's verified default domain, else the
 * service host, looked up by this very statement (no round trip of its own).
 */
const INSERT_SQL = `
  INSERT INTO links (${INSERT_COLUMNS.join(', ')})
  SELECT ${INSERT_SELECT}
  FROM json_populate_recordset(NULL::links, $1::json) r
  LEFT JOIN domains d ON r.domain_name IS NULL AND d.organization_id = r.organization_id AND d.is_default AND d.status = 'verified'
  ON CONFLICT (domain_name, short_code) DO NOTHING
  RETURNING id, domain_id, domain_name, created_at, updated_at`;

/** A template or project deleted between the check and the insert answers like a missing one. */
function rethrowMissingReference(err: unknown): never {
  const text = `${(err as { constraint?: string }).constraint ?? ''} ${String((err as Error).message ?? err)}`;
  if (text.includes('links_template_id_fkey')) throw new TemplateNotFoundError();
  if (text.includes('links_project_id_fkey')) throw new ProjectNotFoundError();
  throw err;
}

/**
 * The links' one way to the database (Prisma, and LinksPg's raw pool on the hot paths).
 * Every method takes the organization id, except `takenShortCodes` (the code space is
 * global). The redirect reads links through its own store (libs/redirect).
 */
@Injectable()
export class LinksRepository {
  /**
   * Single creates outside a transaction: rows of concurrent requests share one
   * multi-row INSERT, one statement and one commit, as soon as an insert slot is free (a group
   * commit: no added wait when idle). Each row is still its own: a taken code answers null for
   * that row only (ON CONFLICT DO NOTHING, also between rows of one batch), and a failed batch
   * (a template or project deleted meanwhile) is retried row by row, so only the guilty row fails.
   */
  private readonly grouped = new Batcher<NewLinkRow, GroupedInsert>({
    maxConcurrent: GROUPED_INSERTS_IN_FLIGHT,
    write: async (rows) => {
      try {
        return (await this.insertLinks(rows)).map((link) => ({ link }));
      } catch (err) {
        if (rows.length === 1) return [{ err }];
        return Promise.all(rows.map((row) => this.insertLinks([row]).then(([link]) => ({ link }), (e: unknown) => ({ err: e }))));
      }
    },
  });

  constructor(
    private readonly prisma: PrismaService,
    private readonly pg: LinksPg,
  ) {}

  transaction<T>(fn: (tx: PrismaTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn, { timeout: 30_000, maxWait: 10_000 });
  }

  async findTemplate(organizationId: string, templateId: string, db: Db = this.prisma): Promise<TemplateRef | null> {
    return db.template.findFirst({
      where: { id: templateId, organizationId },
      select: { id: true, slug: true, defaults: true },
    });
  }

  /** A template by slug, or the organization's oldest one when no slug is given. */
  async findTemplateBySlugOrFirst(organizationId: string, slug?: string): Promise<TemplateRef | null> {
    return this.prisma.template.findFirst({
      where: { organizationId, ...(slug === undefined ? {} : { slug }) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, slug: true, defaults: true },
    });
  }

  async findTemplates(organizationId: string, templateIds: string[], db: Db = this.prisma): Promise<TemplateRef[]> {
    if (!templateIds.length) return [];
    return db.template.findMany({
      where: { id: { in: templateIds }, organizationId },
      select: { id: true, slug: true, defaults: true },
    });
  }

  /** Which of these project ids belong to the organization. */
  async existingProjectIds(organizationId: string, projectIds: string[], db: Db = this.prisma): Promise<Set<string>> {
    if (!projectIds.length) return new Set();
    const rows = await db.project.findMany({
      where: { id: { in: projectIds }, organizationId },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  /** Serializes link creation per organization inside a transaction (plan limit check). */
  async lockOrganizationLinks(tx: PrismaTx, organizationId: string): Promise<void> {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`links:${organizationId}`}, 0))`;
  }

  /** When the organization was created (the new-organization link cap, decisions §22). */
  async organizationCreatedAt(organizationId: string, db: Db = this.prisma): Promise<Date | null> {
    const [row] = await db.$queryRaw<Array<{ created_at: Date }>>`
      SELECT created_at FROM organizations WHERE id = ${organizationId}::uuid`;
    return row ? new Date(row.created_at) : null;
  }

  async countLinks(organizationId: string, db: Db = this.prisma): Promise<number> {
    const [row] = await db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM links WHERE organization_id = ${organizationId}::uuid`;
    return row.n;
  }

  /**
   * One multi-row INSERT (INSERT_SQL). Each row gets its id here, so what came back is matched
   * to what was sent by id. Rows whose short code is taken are skipped (ON CONFLICT DO NOTHING,
   * so the transaction stays usable) and answered with null; the caller retries or refuses them.
   */
  async insertLinks(rows: NewLinkRow[], db?: Db): Promise<Array<LinkRecord | null>> {
    if (!rows.length) return [];
    const ids = rows.map(() => randomUUID());
    const json = JSON.stringify(
      rows.map((r, i) => {
        const out: Record<string, unknown> = {
          id: ids[i],
          organization_id: r.organizationId,
          user_id: r.userId,
          project_id: r.projectId,
          template_id: r.templateId,
          domain_id: r.domainId,
          domain_name: r.domainName,
          short_code: r.shortCode,
          migration_metadata: r.migrationMetadata,
          // An import keeps the source platform's creation date; else the statement's now().
          created_at: r.createdAt ? r.createdAt.toISOString() : null,
          safety_status: r.safetyStatus ?? 'ok',
          safety_reason: r.safetyReason ?? null,
          safety_checked_at: r.safetyCheckedAt?.toISOString() ?? null,
        };
        for (const [key, [column]] of Object.entries(VALUE_COLUMNS)) {
          const value = r[key as keyof LinkValues];
          out[column] = value instanceof Date ? value.toISOString() : value;
        }
        return out;
      }),
    );
    // Only what the database decides comes back; the rest of each record is the row as sent.
    type Inserted = { id: string; domain_id: string | null; domain_name: string; created_at: Date; updated_at: Date };
    // Outside a transaction the statement is prepared once per connection of the links pool.
    const run = (): Promise<Inserted[]> =>
      db ? db.$queryRawUnsafe<Inserted[]>(INSERT_SQL, json) : this.pg.query<Inserted>(INSERT_SQL, [json], 'dl_links_insert');
    const found = new Map((await run().catch(rethrowMissingReference)).map((f) => [f.id, f]));
    return rows.map((r, i): LinkRecord | null => {
      const f = found.get(ids[i]);
      if (!f) return null;
      const { custom: _custom, ...values } = r;
      return {
        ...values,
        id: f.id,
        domainId: f.domain_id,
        domainName: f.domain_name,
        safetyStatus: r.safetyStatus ?? 'ok',
        safetyReason: r.safetyReason ?? null,
        safetyCheckedAt: r.safetyCheckedAt ?? null,
        isActive: true,
        clickCount: 0,
        createdAt: new Date(f.created_at),
        updatedAt: new Date(f.updated_at),
      };
    });
  }

  /** One row outside a transaction, grouped with concurrent ones (see `grouped`): its record, or null when its code is taken. */
  async insertLink(row: NewLinkRow): Promise<LinkRecord | null> {
    const result = await this.grouped.add(row);
    if ('err' in result) throw result.err;
    return result.link;
  }

  /** One page of the list as JSON text (LinksPg builds it in Postgres). */
  listPage(organizationId: string, filter: LinkListFilter): Promise<LinkListPage> {
    return this.pg.listPage(organizationId, filter);
  }

  /** `{tags: [{name, count}]}` of the organization as JSON text. */
  tagsJson(organizationId: string): Promise<string> {
    return this.pg.tagsJson(organizationId);
  }

  async findById(organizationId: string, id: string, db: Db = this.prisma): Promise<LinkRecord | null> {
    if (!isUuid(id)) return null;
    const rows = await db.$queryRaw<LinkRow[]>`
      SELECT ${RECORD_SELECT} FROM links l JOIN templates t ON t.id = l.template_id
      WHERE l.organization_id = ${organizationId}::uuid AND l.id = ${id}::uuid`;
    return rows.length ? rowToRecord(rows[0]) : null;
  }

  async findByIds(organizationId: string, ids: string[], db: Db = this.prisma, forUpdate = false): Promise<LinkRecord[]> {
    if (!ids.length) return [];
    const rows = await db.$queryRaw<LinkRow[]>`
      SELECT ${RECORD_SELECT} FROM links l JOIN templates t ON t.id = l.template_id
      WHERE l.organization_id = ${organizationId}::uuid AND l.id = ANY(${ids}::uuid[])
      ${forUpdate ? Prisma.sql`FOR UPDATE OF l` : Prisma.empty}`;
    return rows.map(rowToRecord);
  }

  /** Links of the organization holding one of these short codes on a domain ('' = the service host). */
  async findByShortCodes(organizationId: string, codes: string[], db: Db = this.prisma, domainName = ''): Promise<LinkRecord[]> {
    if (!codes.length) return [];
    const rows = await db.$queryRaw<LinkRow[]>`
      SELECT ${RECORD_SELECT} FROM links l JOIN templates t ON t.id = l.template_id
      WHERE l.organization_id = ${organizationId}::uuid AND l.domain_name = ${domainName} AND l.short_code = ANY(${codes}::text[])`;
    return rows.map(rowToRecord);
  }

  /** Which of these codes are taken on a domain ('' = the service host) by any organization. */
  async takenShortCodes(codes: string[], db: Db = this.prisma, domainName = ''): Promise<Set<string>> {
    if (!codes.length) return new Set();
    const rows = await db.$queryRaw<Array<{ short_code: string }>>`
      SELECT short_code FROM links WHERE domain_name = ${domainName} AND short_code = ANY(${codes}::text[])`;
    return new Set(rows.map((r) => r.short_code));
  }

  /** Drops a link's cached QR images (its short URL changed). */
  async deleteQrImages(organizationId: string, linkId: string, db: Db = this.prisma): Promise<void> {
    await db.$executeRaw`DELETE FROM qr_images WHERE link_id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid`;
  }

  /** Applies a patch (updated_at set automatically); null when the link is not the organization's. */
  async updateLink(organizationId: string, id: string, patch: LinkPatch, db: Db = this.prisma): Promise<LinkRecord | null> {
    const sets: Prisma.Sql[] = [Prisma.sql`updated_at = now()`];
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (key === 'isActive') sets.push(Prisma.sql`is_active = ${value as boolean}`);
      else if (key === 'templateId') sets.push(Prisma.sql`template_id = ${value as string}::uuid`);
      else if (key === 'projectId') sets.push(Prisma.sql`project_id = ${sqlValue(value, '::uuid')}`);
      else if (key === 'migrationMetadata') sets.push(Prisma.sql`migration_metadata = ${sqlValue(value, '::jsonb')}`);
      else if (key === 'domainId') sets.push(Prisma.sql`domain_id = ${sqlValue(value, '::uuid')}`);
      else if (key === 'domainName') sets.push(Prisma.sql`domain_name = ${value as string}`);
      else if (key === 'safetyStatus') sets.push(Prisma.sql`safety_status = ${value as string}`);
      else if (key === 'safetyReason') sets.push(Prisma.sql`safety_reason = ${sqlValue(value, '')}`);
      else if (key === 'safetyCheckedAt') sets.push(Prisma.sql`safety_checked_at = ${sqlValue(value, '::timestamptz')}`);
      else {
        const [column, cast] = VALUE_COLUMNS[key as keyof LinkValues];
        sets.push(Prisma.sql`${Prisma.raw(column)} = ${sqlValue(value, cast)}`);
      }
    }
    const rows = await db.$queryRaw<LinkRow[]>`
      WITH l AS (
        UPDATE links SET ${Prisma.join(sets)}
        WHERE organization_id = ${organizationId}::uuid AND id = ${id}::uuid
        RETURNING *
      )
      SELECT ${RECORD_SELECT} FROM l JOIN templates t ON t.id = l.template_id`;
    return rows.length ? rowToRecord(rows[0]) : null;
  }

  /**
   * Deletes links with their clicks, rollups, daily visitors, cached QR images and QR logos
   * in one statement (atomic); returns the deleted links.
   */
  async deleteLinks(organizationId: string, ids: string[], db: Db = this.prisma): Promise<LinkRecord[]> {
    if (!ids.length) return [];
    const rows = await db.$queryRaw<LinkRow[]>`
      WITH l AS (
        DELETE FROM links WHERE organization_id = ${organizationId}::uuid AND id = ANY(${ids}::uuid[])
        RETURNING *
      ),
      c AS (DELETE FROM clicks WHERE link_id IN (SELECT id FROM l) RETURNING 1),
      r AS (DELETE FROM click_rollups WHERE link_id IN (SELECT id FROM l) RETURNING 1),
      v AS (DELETE FROM click_daily_visitors WHERE link_id IN (SELECT id FROM l) RETURNING 1),
      q AS (DELETE FROM qr_images WHERE link_id IN (SELECT id FROM l) RETURNING 1),
      g AS (DELETE FROM qr_logos WHERE link_id IN (SELECT id FROM l) RETURNING 1)
      SELECT ${RECORD_SELECT} FROM l JOIN templates t ON t.id = l.template_id`;
    return rows.map(rowToRecord);
  }

  async findQrImage(organizationId: string, linkId: string, variant: string): Promise<{ contentType: string; body: Uint8Array } | null> {
    if (!isUuid(linkId)) return null;
    return this.prisma.qrImage.findFirst({
      where: { organizationId, linkId, variant },
      select: { contentType: true, body: true },
    });
  }

  /** Caches a QR image; a concurrent identical render is ignored. A link deleted meanwhile leaves nothing. */
  async saveQrImage(organizationId: string, linkId: string, variant: string, contentType: string, body: Buffer): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO qr_images (link_id, organization_id, variant, content_type, body)
      SELECT ${linkId}::uuid, ${organizationId}::uuid, ${variant}, ${contentType}, ${body}
      WHERE EXISTS (SELECT 1 FROM links WHERE id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid)
      ON CONFLICT (link_id, variant) DO NOTHING`;
  }

  /** The SHA-256 of a link's QR logo (part of a cached image's variant), or null. */
  async findQrLogoHash(organizationId: string, linkId: string): Promise<string | null> {
    if (!isUuid(linkId)) return null;
    const row = await this.prisma.qrLogo.findFirst({ where: { organizationId, linkId }, select: { sha256: true } });
    return row?.sha256 ?? null;
  }

  async findQrLogo(organizationId: string, linkId: string): Promise<QrLogoRecord | null> {
    if (!isUuid(linkId)) return null;
    return this.prisma.qrLogo.findFirst({
      where: { organizationId, linkId },
      select: { contentType: true, body: true, raster: true, sha256: true, updatedAt: true },
    });
  }

  /**
   * Stores (or replaces) a link's QR logo and drops the link's cached QR images, in one
   * transaction; false when the link is not the organization's.
   */
  async saveQrLogo(organizationId: string, linkId: string, logo: Omit<QrLogoRecord, 'updatedAt'>): Promise<boolean> {
    const [saved] = await this.prisma.$transaction([
      this.prisma.$executeRaw`
        INSERT INTO qr_logos (link_id, organization_id, content_type, body, raster, sha256)
        SELECT ${linkId}::uuid, ${organizationId}::uuid, ${logo.contentType}, ${Buffer.from(logo.body)}, ${logo.raster ? Buffer.from(logo.raster) : null}, ${logo.sha256}
        WHERE EXISTS (SELECT 1 FROM links WHERE id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid)
        ON CONFLICT (link_id) DO UPDATE
          SET content_type = EXCLUDED.content_type, body = EXCLUDED.body, raster = EXCLUDED.raster, sha256 = EXCLUDED.sha256, updated_at = now()`,
      this.prisma.$executeRaw`DELETE FROM qr_images WHERE link_id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid`,
    ]);
    return saved > 0;
  }

  /** Removes a link's QR logo and drops its cached QR images. */
  async deleteQrLogo(organizationId: string, linkId: string): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.$executeRaw`DELETE FROM qr_logos WHERE link_id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid`,
      this.prisma.$executeRaw`DELETE FROM qr_images WHERE link_id = ${linkId}::uuid AND organization_id = ${organizationId}::uuid`,
    ]);
  }
}

export interface QrLogoRecord {
  contentType: string;
  body: Uint8Array;
  /** PNG rendering of an SVG logo. */
  raster: Uint8Array | null;
  sha256: string;
  updatedAt: Date;
}
