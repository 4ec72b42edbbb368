import { Injectable, Logger } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import type { Archiver, ArchiverError, ArchiverOptions } from 'archiver';
import { PassThrough, Readable } from 'node:stream';
import { csvLine } from '@dl/platform/http';
import { ExportRow, ExportSnapshot, ExportTable, OrganizationExportRepository } from './organization-export.repository';

// The installed archiver (7, CommonJS) exports a factory; @types/archiver describes version 8's classes.
const createArchive = require('archiver') as (format: 'zip', options: ArchiverOptions) => Archiver;

/** The files of the export (decisions §20) and the tables behind them. */
export const EXPORT_TABLES = {
  links: { table: 'links', orderBy: ['id'], omit: ['password_hash'] },
  clicks: { table: 'clicks', orderBy: ['clicked_at', 'id'] },
  templates: { table: 'templates', orderBy: ['id'] },
  projects: { table: 'projects', orderBy: ['id'] },
  domains: { table: 'domains', orderBy: ['id'] },
  webhooks: { table: 'webhooks', orderBy: ['id'], omit: ['secret'] },
} as const satisfies Record<string, ExportTable>;

/** A cell as the CSV files write it: dates in ISO 8601, JSON values as JSON. */
function cell(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'bigint') return v.toString();
  return v as string | number | boolean;
}

async function* csv(pages: AsyncIterable<ExportRow[]>, header: () => string[] | Promise<string[]>): AsyncGenerator<string> {
  const columns = await header();
  yield `${csvLine(columns)}\r\n`;
  for await (const rows of pages) yield rows.map((r) => `${csvLine(columns.map((c) => cell(r[c])))}\r\n`).join('');
}

async function* jsonArray(pages: AsyncIterable<ExportRow[]>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const rows of pages) {
    for (const r of rows) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(r)}`;
      first = false;
    }
  }
  yield first ? ']\n' : '\n]\n';
}

async function* pagesOf<T>(read: () => Promise<T>): AsyncGenerator<T> {
  yield await read();
}

/**
 * GET /api/organization/export: a ZIP of the organization's data streamed as it is read, from
 * one snapshot of the database (see ExportSnapshot). Files are written one after the other.
 */
@Injectable()
export class OrganizationExportService {
  private readonly logger = new Logger(OrganizationExportService.name);

  constructor(
    private readonly repo: OrganizationExportRepository,
    private readonly audit: AuditSink,
  ) {}

  async export(organizationId: string): Promise<{ stream: Readable; filename: string }> {
    const snapshot = await this.repo.open(organizationId);
    this.audit.record({ organizationId, action: 'organization.exported', targetId: organizationId, changes: { files: Object.keys(EXPORT_TABLES).concat('members') } });
    const out = new PassThrough();
    const zip = createArchive('zip', { zlib: { level: 6 } });
    zip.on('warning', (err: ArchiverError) => this.logger.warn({ err: err.message }, 'export warning'));
    zip.pipe(out);
    void this.write(zip, snapshot)
      .catch((err: Error) => {
        this.logger.error({ err: err.message, organizationId }, 'export failed mid-stream');
        zip.abort();
        out.destroy(err);
      })
      .finally(() => snapshot.close().catch(() => undefined));
    return { stream: out, filename: `organization-${organizationId}-export.zip` };
  }

  private async write(zip: Archiver, s: ExportSnapshot): Promise<void> {
    const files: Array<[string, AsyncIterable<string>]> = [
      ['links.csv', csv(s.rows(EXPORT_TABLES.links), () => s.columns(EXPORT_TABLES.links))],
      ['clicks.csv', csv(s.rows(EXPORT_TABLES.clicks), () => s.columns(EXPORT_TABLES.clicks))],
      ['templates.json', jsonArray(s.rows(EXPORT_TABLES.templates))],
      ['projects.json', jsonArray(s.rows(EXPORT_TABLES.projects))],
      ['domains.json', jsonArray(s.rows(EXPORT_TABLES.domains))],
      ['webhooks.json', jsonArray(s.rows(EXPORT_TABLES.webhooks))],
      ['members.csv', csv(pagesOf(() => s.members()), () => ['user_id', 'email', 'name', 'role', 'joined_at'])],
    ];
    // One entry at a time: they share the snapshot's one connection.
    for (const [name, content] of files) {
      const entered = new Promise<void>((resolve, reject) => {
        zip.once('entry', () => resolve());
        zip.once('error', reject);
      });
      zip.append(Readable.from(content), { name });
      await entered;
    }
    await zip.finalize();
  }
}
