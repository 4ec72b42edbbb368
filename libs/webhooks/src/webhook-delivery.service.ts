import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { JobQueue, Queues, WebhookDeliverJob, WebhookEventJob } from '@dl/platform/queue';
import { parseAllowList } from './address-guard';
import { AttemptRecorder } from './attempt-recorder';
import { WebhookRateGate } from './rate-gate';
import { deliverJobOptions, WEBHOOK_MAX_ATTEMPTS } from './webhook-job-options';
import { GroupCommit } from './group-commit';
import { DeliveryTarget, FanOutEvent, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { webhookBody } from './webhook-events';
import { AttemptResult, WebhookHttpClient } from './webhook-http.client';
import { secretKey, signWebhook } from './webhook-signature';

/** Thrown by `deliver` when the rate gate says "not now": the processor re-delays the job without counting an attempt. */
export class DeferDeliveryError extends Error {
  constructor(readonly delayMs: number) {
    super(`Delivery deferred by ${delayMs} ms`);
  }
}

/** A failed attempt with retries left: the processor lets BullMQ retry it with backoff. */
export class DeliveryAttemptFailedError extends Error {}

/** Identifies one attempt in the rate gate (reservation, window, in-flight sets). */
const attemptToken = (deliveryId: string, attempt: number) => `${deliveryId}#${attempt}`;

export type DeliverOutcome = 'delivered' | 'failed' | 'skipped';

/** Webhook targets are read at most once per second per worker (hot path: one read saved per delivery). */
const TARGET_TTL_MS = 1000;

/** The delivery engine: fan-out of domain events and signed, rate-limited, logged attempts. */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly http: WebhookHttpClient;
  /** Fan-outs of concurrent events share one statement. */
  private readonly fanOuts: GroupCommit<FanOutEvent, Array<{ id: string; webhookId: string }>>;
  private readonly attemptsTotal: Counter<'outcome'>;
  private readonly attemptDuration: Histogram;
  private readonly targets = new Map<string, { target: DeliveryTarget | null; key: Buffer | null; expires: number }>();

  constructor(
    private readonly repo: WebhookDeliveriesRepository,
    private readonly gate: WebhookRateGate,
    private readonly attempts: AttemptRecorder,
    private readonly queue: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    metrics: MetricsService,
  ) {
    this.attemptsTotal = new Counter({
      name: 'webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome (success, failed, gone)',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of webhook delivery attempts',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [metrics.registry],
    });
    this.fanOuts = new GroupCommit((events) => repo.fanOut(events));
    this.http = new WebhookHttpClient(parseAllowList(config.WEBHOOK_ALLOW_CIDRS), config.WEBHOOK_TIMEOUT_MS);
  }

  onModuleDestroy(): void {
    this.http.close();
  }

  /** `webhook.event`: one delivery row and one job per matching active webhook. */
  async fanOut(event: WebhookEventJob): Promise<number> {
    const payload = webhookBody(event.type, event.data);
    const body = JSON.stringify(payload);
    const deliveries = await this.fanOuts.add({
      organizationId: event.organizationId,
      eventId: event.eventId,
      type: event.type,
      projectId: event.projectId,
      payload,
    });
    // Slots are taken now, so each delivery job waits in Redis until its turn (no second pickup).
    const delays = await this.gate.reserve(
      event.organizationId,
      deliveries.map((d) => ({ webhookId: d.webhookId, token: attemptToken(d.id, 1) })),
    );
    await this.queue.addBulk(
      Queues.webhooks,
      'webhook.deliver',
      deliveries.map((d, i) => ({
        payload: {
          deliveryId: d.id,
          webhookId: d.webhookId,
          organizationId: event.organizationId,
          eventId: event.eventId,
          body,
        },
        opts: { ...deliverJobOptions(this.config, d.id), ...(delays[i] > 0 ? { delay: delays[i] } : {}) },
      })),
    );
    return deliveries.length;
  }

  /**
   * `webhook.deliver`: one attempt. Throws DeferDeliveryError (rate or in-flight cap reached) or
   * DeliveryAttemptFailedError (retry later); returns once the delivery is settled.
   */
  async deliver(job: WebhookDeliverJob, meta: { attemptsMade: number }): Promise<DeliverOutcome> {
    const { target, key } = await this.target(job.organizationId, job.webhookId);
    if (!target || !key || (!target.isActive && !job.test)) {
      await this.repo.abandon(job.organizationId, job.deliveryId);
      return 'skipped';
    }
    const attempt = meta.attemptsMade + 1;
    const token = attemptToken(job.deliveryId, attempt);
    const decision = await this.gate.acquire(target.id, job.organizationId, token);
    if (!decision.go) throw new DeferDeliveryError(decision.waitMs);

    let result: AttemptResult;
    try {
      const headers = signWebhook(key, job.eventId, Math.floor(Date.now() / 1000), job.body);
      result = await this.http.post(target.url, { ...headers }, job.body);
    } finally {
      await this.gate.release(target.id, job.organizationId, token).catch(() => undefined);
    }

    this.attemptsTotal.inc({ outcome: result.ok ? 'success' : result.gone ? 'gone' : 'failed' });
    this.attemptDuration.observe(result.durationMs / 1000);
    const final = result.ok || result.gone || attempt >= WEBHOOK_MAX_ATTEMPTS;
    const outcome = await this.attempts.record({
      organizationId: job.organizationId,
      deliveryId: job.deliveryId,
      webhookId: target.id,
      attempt,
      result,
      final,
    });
    if (!outcome.webhookActive) {
      this.targets.delete(`${job.organizationId}:${target.id}`);
      this.logger.warn({
        msg: 'webhook disabled',
        organizationId: job.organizationId,
        webhookId: target.id,
        reason: outcome.disabledReason,
      });
    }
    if (result.ok) return 'delivered';
    this.logger.log({
      msg: 'webhook attempt failed',
      organizationId: job.organizationId,
      webhookId: target.id,
      deliveryId: job.deliveryId,
      attempt,
      statusCode: result.statusCode,
      error: result.error,
    });
    if (final) return 'failed';
    throw new DeliveryAttemptFailedError(result.error ?? 'Delivery failed');
  }

  private async target(organizationId: string, webhookId: string) {
    const now = Date.now();
    const cacheKey = `${organizationId}:${webhookId}`;
    const cached = this.targets.get(cacheKey);
    if (cached && cached.expires > now) return cached;
    const target = await this.repo.target(organizationId, webhookId);
    let key: Buffer | null = null;
    if (target) key = secretKey(target.secret);
    const entry = { target, key, expires: now + TARGET_TTL_MS };
    if (this.targets.size > 10_000) this.targets.clear();
    this.targets.set(cacheKey, entry);
    return entry;
  }
}
