import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { csvLine, ValidationError } from '@dl/platform/http';
import { isUuid, parseIsoDate } from '@dl/platform/validation';
import { ChainVerifier } from './audit-hash';
import { AuditSink } from './audit-recorder';
import { AUDIT_CURSOR_MESSAGE, AuditEntryDto, AuditLogQueryDto, AuditVerifyResponseDto } from './audit.dto';
import { toAuditEntry } from './audit.mapper';
import { AuditFilter, AuditRepository } from './audit.repository';

const DEFAULT_LIMIT = 50;
const EXPORT_PAGE = 1000;
const VERIFY_PAGE = 2000;
export const AUDIT_CSV_HEADER = 'id,createdAt,actorType,actorId,actorName,action,targetType,targetId,changes,ip,userAgent,requestId';

function encodeCursor(createdAt: string, id: string): string {
  return Buffer.from(`${createdAt}|${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const [at, id, extra] = text.split('|');
  const createdAt = parseIsoDate(at);
  if (extra !== undefined || !id || !isUuid(id) || !createdAt) throw new ValidationError({ cursor: AUDIT_CURSOR_MESSAGE });
  return { createdAt, id };
}

export interface AuditPage {
  entries: AuditEntryDto[];
  nextCursor: string | null;
}

/** Reads of the audit log (decisions §25): pages newest first, the CSV export, the chain check. */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly audit: AuditSink,
  ) {}

  async list(organizationId: string, q: AuditLogQueryDto): Promise<AuditPage> {
    const limit = q.limit ?? DEFAULT_LIMIT;
    const rows = await this.repo.list(organizationId, { ...this.filter(q), limit: limit + 1 });
    const page = rows.slice(0, limit).map(toAuditEntry);
    const last = page[page.length - 1];
    return { entries: page, nextCursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.id) : null };
  }

  /** Every matching entry, newest first, as CSV (formula-safe cells), page by page. */
  exportCsv(organizationId: string, q: AuditLogQueryDto): Readable {
    const base = this.filter(q);
    this.audit.record({ organizationId, action: 'export.created', changes: { kind: 'audit_log', ...q } });
    const repo = this.repo;
    async function* lines(): AsyncGenerator<string> {
      yield `${AUDIT_CSV_HEADER}\r\n`;
      let before = base.before;
      for (;;) {
        const rows = await repo.list(organizationId, { ...base, before, limit: EXPORT_PAGE });
        let chunk = '';
        for (const r of rows) {
          const e = toAuditEntry(r);
          chunk += `${csvLine([e.id, e.createdAt, e.actor.type, e.actor.id, e.actor.name, e.action, e.targetType, e.targetId, e.changes ? JSON.stringify(e.changes) : '', e.ip, e.userAgent, e.requestId])}\r\n`;
        }
        if (chunk) yield chunk;
        if (rows.length < EXPORT_PAGE) return;
        const last = rows[rows.length - 1];
        before = { createdAt: last.createdAt, id: last.id };
      }
    }
    return Readable.from(lines());
  }

  /**
   * Walks the organization's chain in order: each entry must name its predecessor's hash and
   * hash as stored. The oldest entry kept anchors the chain (retention deletes from the start).
   */
  async verify(organizationId: string): Promise<AuditVerifyResponseDto> {
    const verifier = new ChainVerifier();
    let after = 0n;
    for (;;) {
      const rows = await this.repo.chainPage(organizationId, after, VERIFY_PAGE);
      for (const r of rows) verifier.next(r);
      if (rows.length < VERIFY_PAGE) break;
      after = rows[rows.length - 1].seq;
    }
    return { valid: verifier.firstBrokenId === null, entries: verifier.entries, firstBrokenId: verifier.firstBrokenId };
  }

  private filter(q: AuditLogQueryDto): Omit<AuditFilter, 'limit'> {
    return {
      action: q.action,
      actorId: q.actorId,
      targetId: q.targetId,
      from: q.from ? (parseIsoDate(q.from) ?? undefined) : undefined,
      to: q.to ? (parseIsoDate(q.to) ?? undefined) : undefined,
      before: q.cursor ? decodeCursor(q.cursor) : undefined,
    };
  }
}
