import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { sqlState } from '@dl/platform/db';
import { currentRequestActor, currentRequestMeta } from '@dl/platform/http';
import { AUDIT_ACTIONS, AuditAction } from './audit-actions';
import { redactChanges } from './audit-redact';
import { AuditRepository, NewAuditEntry } from './audit.repository';

/** Who did it: a user, an API key, or the service itself (the worker, the operator CLI). */
export interface AuditActor {
  type: 'user' | 'apiKey' | 'system';
  id: string | null;
}

export const SYSTEM_ACTOR: AuditActor = { type: 'system', id: null };

/** A caller as the auth guard knows it (libs/auth's Principal satisfies this). */
export interface ActingPrincipal {
  userId: string;
  apiKeyId?: string;
}

export function actorOf(principal: ActingPrincipal): AuditActor {
  return principal.apiKeyId ? { type: 'apiKey', id: principal.apiKeyId } : { type: 'user', id: principal.userId };
}

export interface AuditEvent {
  organizationId: string;
  action: AuditAction;
  targetId?: string | null;
  /** What changed (`{field: new value}` or `{field: {from, to}}`); secret-named fields are redacted. */
  changes?: Record<string, unknown> | null;
  /** Default: the request's authenticated caller, else the system. */
  actor?: AuditActor | ActingPrincipal;
}

/**
 * What services depend on (the DI token): `record` an event. AuditRecorder is the one
 * implementation; seeding helpers that write no audit pass NO_AUDIT.
 */
export abstract class AuditSink {
  abstract record(event: AuditEvent): void;
}

/** For seeding test data through the real services without audit entries. */
export const NO_AUDIT: AuditSink = { record: () => undefined };

/** A retried batch meeting the rows an earlier try of it committed: their primary key exists. */
function isAlreadyWritten(err: unknown): boolean {
  return sqlState(err) === '23505' && String((err as { constraint?: string }).constraint) === 'audit_entries_pkey';
}

/** Entries wait at most this long for their batch. */
const MAX_WAIT_MS = 50;
const MAX_BATCH = 500;

/**
 * The one audit recorder (decisions §25). Services call `record` after a state change; it takes
 * the actor and the request's IP, user agent and id from the request being served (none in the
 * worker or the CLI: the actor is then the system unless named), redacts the changes and queues
 * the entry. Entries are written in batches (≤ 50 ms or 500 entries, one transaction per
 * organization in a batch), never awaited by the request; a failed write is retried. `flush`
 * waits for what is queued (the CLI before it exits, tests); shutdown drains.
 */
@Injectable()
export class AuditRecorder extends AuditSink implements OnApplicationShutdown {
  private readonly logger = new Logger(AuditRecorder.name);
  private readonly batcher: Batcher<NewAuditEntry>;

  constructor(private readonly repo: AuditRepository) {
    super();
    this.batcher = new Batcher<NewAuditEntry>({
      write: (items) => this.write(items),
      maxSize: MAX_BATCH,
      maxWaitMs: MAX_WAIT_MS,
      retryDelayMs: 1000,
    });
  }

  record(event: AuditEvent): void {
    const meta = currentRequestMeta();
    const explicit = event.actor;
    const actor: AuditActor = explicit
      ? 'type' in explicit
        ? explicit
        : actorOf(explicit)
      : (currentRequestActor() ?? SYSTEM_ACTOR);
    const changes = event.changes ? redactChanges(event.changes) : null;
    const entry: NewAuditEntry = {
      id: randomUUID(),
      organizationId: event.organizationId,
      actorType: actor.type,
      actorId: actor.id,
      action: event.action,
      targetType: AUDIT_ACTIONS[event.action],
      targetId: event.targetId ?? null,
      changes,
      ip: meta?.ip ?? null,
      userAgent: meta?.userAgent ?? null,
      requestId: meta?.requestId ?? null,
      createdAt: new Date(),
    };
    try {
      this.batcher.push(entry);
    } catch (err) {
      // Shutting down: the batcher is closed and drained.
      this.logger.error({ err: String(err), action: entry.action, organizationId: entry.organizationId }, 'Audit entry not recorded');
    }
  }

  /** Resolves once every entry recorded so far is written. */
  flush(): Promise<void> {
    return this.batcher.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.batcher.close();
    await this.repo.close();
  }

  private async write(items: NewAuditEntry[]): Promise<void> {
    const byOrg = new Map<string, NewAuditEntry[]>();
    for (const item of items) {
      const list = byOrg.get(item.organizationId);
      if (list) list.push(item);
      else byOrg.set(item.organizationId, [item]);
    }
    for (const [organizationId, entries] of byOrg) {
      try {
        await this.repo.append(organizationId, entries);
      } catch (err) {
        // The organization was deleted meanwhile (its log went with it), or a retried batch
        // meets the entries an earlier try of it wrote: nothing left to write for it.
        if (sqlState(err) === '23503' || isAlreadyWritten(err)) continue;
        this.logger.warn({ err: String(err), organizationId, entries: entries.length }, 'Audit entries not written yet; retrying');
        throw err;
      }
    }
  }
}
