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
   * Creates one delivery per active webhook of the organization subscribed to `type` (and to the
   * event's project, when filtered) in one statement. A replayed event inserts nothing new
   * (unique webhook_id, event_id) but returns its still-pending deliveries, so a job lost between
   * insert and enqueue is queued again (BullMQ de-duplicates on the delivery id).
   */
  async fanOut(
    organizationId: string,
    event: { eventId: string; type: string; projectId: string | null; payload: object },
  ): Promise<Array<{ id: string; webhookId: string }>> {
    return this.prisma.$queryRaw<Array<{ id: string; webhookId: string }>>(Prisma.sql`
      WITH hooks AS (
        SELECT id FROM webhooks
        WHERE organization_id = ${organizationId}::uuid
          AND is_active
          AND ${event.type}::text = ANY(events)
          AND (project_id IS NULL OR project_id = ${event.projectId}::uuid)
      ), inserted AS (
        INSERT INTO webhook_deliveries (organization_id, webhook_id, event_id, event_type, payload)
        SELECT ${organizationId}::uuid, hooks.id, ${event.eventId}::text, ${event.type}::text, ${JSON.stringify(event.payload)}::jsonb
        FROM hooks
        ON CONFLICT (webhook_id, event_id) DO NOTHING
        RETURNING id, webhook_id
      )
      SELECT id, webhook_id AS "webhookId" FROM inserted
      UNION ALL
      SELECT d.id, d.webhook_id FROM webhook_deliveries d JOIN hooks ON d.webhook_id = hooks.id
      WHERE d.event_id = ${event.eventId}::text AND d.status = 'pending'
    `);
  }

  async target(organizationId: string, webhookId: string): Promise<DeliveryTarget | null> {
    return this.prisma.webhook.findFirst({
      where: { id: webhookId, organizationId },
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
   * Logs one attempt and applies its consequences in one round trip: the attempt row, the
   * delivery's status, and the webhook's failure run (`failing_since` set on the first failure,
   * cleared by a success); a 410, or a failure when the run is 3 days old, disables the webhook.
   */
  async recordAttempt(
    organizationId: string,
    a: { deliveryId: string; webhookId: string; attempt: number; result: AttemptResult; final: boolean },
  ): Promise<AttemptOutcome> {
    const { result } = a;
    const status = result.ok ? 'success' : a.final ? 'failed' : 'pending';
    const rows = await this.prisma.$queryRaw<Array<{ isActive: boolean; disabledReason: string | null }>>(Prisma.sql`
      WITH attempt AS (
        INSERT INTO webhook_attempts (delivery_id, attempt, status_code, duration_ms, error, response_excerpt)
        SELECT id, ${a.attempt}::int, ${result.statusCode}::int, ${result.durationMs}::int, ${result.error}::text, ${result.responseExcerpt}::text
        FROM webhook_deliveries WHERE id = ${a.deliveryId}::uuid AND organization_id = ${organizationId}::uuid
      ), delivery AS (
        UPDATE webhook_deliveries
        SET attempts = GREATEST(attempts, ${a.attempt}::int),
            status = ${status}::text::"DeliveryStatus",
            completed_at = ${status === 'pending' ? null : new Date()}::timestamptz
        WHERE id = ${a.deliveryId}::uuid AND organization_id = ${organizationId}::uuid
      ), hook AS (
        UPDATE webhooks
        SET failing_since = CASE WHEN ${result.ok}::boolean THEN NULL ELSE COALESCE(failing_since, now()) END,
            is_active = is_active AND NOT (${result.gone}::boolean OR (NOT ${result.ok}::boolean AND COALESCE(failing_since <= now() - interval '3 days', false))),
            disabled_at = CASE
              WHEN is_active AND (${result.gone}::boolean OR (NOT ${result.ok}::boolean AND COALESCE(failing_since <= now() - interval '3 days', false))) THEN now()
              ELSE disabled_at END,
            disabled_reason = CASE
              WHEN is_active AND ${result.gone}::boolean THEN 'endpoint_gone'
              WHEN is_active AND NOT ${result.ok}::boolean AND COALESCE(failing_since <= now() - interval '3 days', false) THEN 'failing'
              ELSE disabled_reason END,
            updated_at = now()
        WHERE id = ${a.webhookId}::uuid AND organization_id = ${organizationId}::uuid
          AND (NOT ${result.ok}::boolean OR failing_since IS NOT NULL)
        RETURNING is_active, disabled_reason
      )
      SELECT is_active AS "isActive", disabled_reason AS "disabledReason" FROM hook
    `);
    const row = rows[0];
    return { webhookActive: row ? row.isActive : true, disabledReason: row?.disabledReason ?? null };
  }
}
