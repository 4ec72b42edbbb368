import { ShapeAgrees } from '@dl/platform/http';
import { AuditEntryDto } from './audit.dto';
import { AuditRow } from './audit.repository';

export function toAuditEntry(row: AuditRow) {
  return {
    id: row.id,
    actor: { type: row.actorType as 'user' | 'apiKey' | 'system', id: row.actorId, name: row.actorType === 'system' ? 'system' : row.actorName },
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    changes: (row.changes ?? null) as Record<string, unknown> | null,
    ip: row.ip,
    userAgent: row.userAgent,
    requestId: row.requestId,
    createdAt: row.createdAt.toISOString(),
  };
}

export const AUDIT_SHAPES_AGREE: [ShapeAgrees<AuditEntryDto, ReturnType<typeof toAuditEntry>>] = [true];
