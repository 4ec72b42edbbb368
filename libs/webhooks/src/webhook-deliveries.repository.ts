import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@dl/platform/db';
import { AttemptResult } from './webhook-http.client';

export interface DeliveryTarget {
  id: string;
  url: string;
  secret: string;
  isActive: boolean;
}

export interface AttemptOutcome {
  /** The webhook is still active after this attempt (false: 410 or 3 days of failures). */
  webhookActive: boolean;
  disabledReason: string | null;
}

/** The delivery engine's data access: fan-out, targets, the attempt log. Scoped by organization. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * For a batch of events, creates one delivery per active webhook of the event's organization
   * subscribed to its kind (and to its project, when filtered), in one statement. A replayed
   * event inserts nothing new (unique webhook_id, event_id) but gets its still-pending deliveries
   * back, so a job lost between insert and enqueue is queued again (the delivery id is the job id).
   * Returns the deliveries of each event, in input order.
   */
  async fanOut(events: FanOutEvent[]): Promise<Array<Array<{ id: string; webhookId: string }>>> {
    if (!events.length) return [];
    const col = <T>(f: (e: FanOutEvent) => T) => events.map(f);
    const rows = await this.prisma.$queryRaw<Array<{ id: string; webhookId: string; eventId: string; organizationId: string }>>(Prisma.sql`
      WITH input AS (
        SELECT * FROM unnest(
          ${col((e) => e.organizationId)}::uuid[], ${col((e) => e.eventId)}::text[], ${col((e) => e.type)}::text[],
          ${col((e) => e.projectId)}::uuid[], ${col((e) => JSON.stringify(e.payload))}::text[]
        ) AS i(organization_id, event_id, event_type, project_id, payload)
      ), hooks AS MATERIALIZED (
        SELECT DISTINCT ON (w.id, i.event_id) w.id AS webhook_id, i.organization_id, i.event_id, i.event_type, i.payload
        FROM input i
        JOIN webhooks w ON w.organization_id = i.organization_id AND w.is_active
          AND i.event_type = ANY(w.events)
        -- A suspended organization's webhooks stop (decisions §22).
        JOIN organizations o ON o.id = i.organization_id AND o.suspended_at IS NULL
          AND (w.project_id IS NULL OR w.project_id = i.project_id)
      ), inserted AS (
        INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, event_type, payload)
        SELECT organization_id, webhook_id, event_id, event_type, payload::jsonb FROM hooks
        ON CONFLICT (webhook_id, event_id) DO NOTHING
        RETURNING id, webhook_id, event_id, organization_id
      )
      SELECT id, webhook_id AS "webhookId", event_id AS "eventId", organization_id::text AS "organizationId" FROM inserted
      UNION ALL
      SELECT d.id, d.webhook_id, d.event_id, d.organization_id::text
      FROM hooks h JOIN webhook_deliveries d ON d.webhook_id = h.webhook_id AND d.event_id = h.event_id
      WHERE d.status = 'pending'
    `);
    // Back to the events (an event id twice in a batch gets the same deliveries: one job each, de-duplicated).
    const byEvent = new Map<string, Array<{ id: string; webhookId: string }>>();
    for (const r of rows) {
      const key = `${r.organizationId}:${r.eventId}`;
      const list = byEvent.get(key) ?? [];
      if (!list.some((d) => d.id === r.id)) list.push({ id: r.id, webhookId: r.webhookId });
      byEvent.set(key, list);
    }
    const out = events.map((e) => byEvent.get(`${e.organizationId}:${e.eventId}`) ?? []);
    return out;
  }

  /** Organization of each webhook id that still exists (the lane sweep: a system task across organizations). */
  async organizationsOf(webhookIds: string[]): Promise<Map<string, string>> {
    if (!webhookIds.length) return new Map();
    const rows = await this.prisma.webhook.findMany({ where: { id: { in: webhookIds } }, select: { id: true, organizationId: true } });
    return new Map(rows.map((r) => [r.id, r.organizationId]));
  }

  async target(organizationId: string, webhookId: string): Promise<DeliveryTarget | null> {
    // A suspended organization's pending deliveries are not attempted (decisions §22).
    return this.prisma.webhook.findFirst({
      where: { id: webhookId, organizationId, organization: { suspendedAt: null } },
      select: { id: true, url: true, secret: true, isActive: true },
    });
  }

  /** A delivery that will not be attempted (its webhook was disabled or deleted meanwhile). */
  async abandon(organizationId: string, deliveryId: string): Promise<void> {
    await this.prisma.webhookDelivery.updateMany({
      where: { id: deliveryId, organizationId, status: 'pending' },
      data: { status: 'failed', completedAt: new Date() },
    });
  }

  /**
   * Logs a batch of attempts and applies their consequences in one round trip: the attempt rows,
   * each delivery's status, and each webhook's failure run (`failing_since` set on the first
   * failure, cleared by a success); a 410, or a failure when the run is 3 days old, disables the
   * webhook. Returns the webhooks whose state changed (absent: unchanged, still active).
   */
  async recordAttempts(attempts: AttemptRecord[]): Promise<Map<string, AttemptOutcome>> {
    if (!attempts.length) return new Map();
    const col = <T>(f: (a: AttemptRecord) => T) => attempts.map(f);
    const status = (a: AttemptRecord) => (a.result.ok ? 'success' : a.final ? 'failed' : 'pending');
    const rows = await this.prisma.$queryRaw<Array<{ id: string; isActive: boolean; disabledReason: string | null }>>(Prisma.sql`
      WITH input AS (
        SELECT * FROM unnest(
          ${col((a) => a.organizationId)}::uuid[], ${col((a) => a.deliveryId)}::uuid[], ${col((a) => a.webhookId)}::uuid[],
          ${col((a) => a.attempt)}::int[], ${col((a) => a.result.statusCode)}::int[], ${col((a) => a.result.durationMs)}::int[],
          ${col((a) => a.result.error)}::text[], ${col((a) => a.result.responseExcerpt)}::text[],
          ${col((a) => a.result.ok)}::boolean[], ${col((a) => a.result.gone)}::boolean[], ${col(status)}::text[]
        ) AS i(organization_id, delivery_id, webhook_id, attempt, status_code, duration_ms, error, excerpt, ok, gone, status)
      ), attempt AS (
        INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, response_excerpt)
        SELECT d.id, i.attempt, i.status_code, i.duration_ms, i.error, i.excerpt
        FROM input i JOIN webhook_deliveries d ON d.id = i.delivery_id AND d.organization_id = i.organization_id
      ), delivery AS (
        UPDATE webhook_deliveries d
        SET attempts = GREATEST(d.attempts, i.attempt),
            status = i.status::"DeliveryStatus",
            completed_at = CASE WHEN i.status = 'pending' THEN NULL ELSE now() END
        FROM input i
        WHERE d.id = i.delivery_id AND d.organization_id = i.organization_id
      ), per_hook AS (
        SELECT organization_id, webhook_id, bool_or(ok) AS any_ok, bool_or(gone) AS any_gone
        FROM input GROUP BY organization_id, webhook_id
      ), hook AS (
        UPDATE webhooks w
        SET failing_since = CASE WHEN p.any_ok THEN NULL ELSE COALESCE(w.failing_since, now()) END,
            is_active = w.is_active AND NOT (p.any_gone OR (NOT p.any_ok AND COALESCE(w.failing_since <= now() - interval '3 days', false))),
            disabled_at = CASE
              WHEN w.is_active AND (p.any_gone OR (NOT p.any_ok AND COALESCE(w.failing_since <= now() - interval '3 days', false))) THEN now()
              ELSE w.disabled_at END,
            disabled_reason = CASE
              WHEN w.is_active AND p.any_gone THEN 'endpoint_gone'
              WHEN w.is_active AND NOT p.any_ok AND COALESCE(w.failing_since <= now() - interval '3 days', false) THEN 'failing'
              ELSE w.disabled_reason END,
            updated_at = now()
        FROM per_hook p
        WHERE w.id = p.webhook_id AND w.organization_id = p.organization_id
          AND (NOT p.any_ok OR p.any_gone OR w.failing_since IS NOT NULL)
        RETURNING w.id, w.is_active, w.disabled_reason
      )
      SELECT id, is_active AS "isActive", disabled_reason AS "disabledReason" FROM hook
    `);
    return new Map(rows.map((r) => [r.id, { webhookActive: r.isActive, disabledReason: r.disabledReason }]));
  }
}

export interface FanOutEvent {
  organizationId: string;
  eventId: string;
  type: string;
  projectId: string | null;
  payload: object;
}

export interface AttemptRecord {
  organizationId: string;
  deliveryId: string;
  webhookId: string;
  attempt: number;
  result: AttemptResult;
  /** No retry follows (success, 410, or the last attempt). */
  final: boolean;
}
