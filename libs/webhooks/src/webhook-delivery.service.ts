import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Counter, Histogram } from 'prom-client';
import { Batcher } from '@dl/platform/batch';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { MetricsService } from '@dl/platform/observability';
import { JobQueue, Queues, WebhookDeliverJob, WebhookDrainJob, WebhookEventJob } from '@dl/platform/queue';
import { parseAllowList } from './address-guard';
import { AttemptRecorder } from './attempt-recorder';
import { ClaimedDelivery, LaneItem, Settlement, WebhookRateGate } from './rate-gate';
import { drainJobOptions, retryDelayMs, WEBHOOK_MAX_ATTEMPTS } from './webhook-job-options';
import { DeliveryTarget, FanOutEvent, WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { webhookBody } from './webhook-events';
import { WebhookHttpClient } from './webhook-http.client';
import { secretKey, signWebhook } from './webhook-signature';

/** Thrown by `drain` when nothing may go before a while: the processor re-delays the job without counting an attempt. */
export class DeferDeliveryError extends Error {
  constructor(readonly delayMs: number) {
    super(`Delivery deferred by ${delayMs} ms`);
  }
}

export type DeliverOutcome = 'queued';

/** Deliveries claimed at once at most (the rate gate and in-flight caps usually allow fewer). */
const MAX_BATCH = 50;
/** A drain job waits in process up to this long (a rate window); longer waits go back to Redis (delayed job). */
const SLEEP_MAX_MS = 1100;
/** A drain job yields its worker slot after this long (fairness between webhooks). */
const HOLD_MS = 5000;
/** An attempt whose log could not be written is sent again after this (same attempt number). */
const UNRECORDED_RETRY_MS = 5000;

/** Webhook targets are read at most once per second per worker (hot path: one read saved per delivery). */
const TARGET_TTL_MS = 1000;

/** The delivery engine: fan-out of domain events and signed, rate-limited, logged attempts. */
@Injectable()
export class WebhookDeliveryService implements OnModuleDestroy {
  private readonly logger = new Logger(WebhookDeliveryService.name);
  private readonly http: WebhookHttpClient;
  /** Fan-outs of concurrent events share one statement. */
  private readonly fanOuts: Batcher<FanOutEvent, Array<{ id: string; webhookId: string }>>;
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
    private readonly audit: AuditSink,
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
    // Group commit: events arriving during a fan-out share the next one.
    this.fanOuts = new Batcher({ maxSize: 500, write: (events: FanOutEvent[]) => repo.fanOut(events) });
    this.http = new WebhookHttpClient(parseAllowList(config.WEBHOOK_ALLOW_CIDRS), config.WEBHOOK_TIMEOUT_MS);
  }

  /** Set at shutdown: drains stop waiting and hand their webhook back to Redis. */
  private closing = false;
  private readonly sleepers = new Set<() => void>();

  onModuleDestroy(): void {
    this.closing = true;
    for (const wake of this.sleepers) wake();
    this.http.close();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleepers.add(wake);
    });
  }

  /** `webhook.event`: one delivery row per matching active webhook, into that webhook's lane. */
  async fanOut(event: WebhookEventJob): Promise<number> {
    const payload = webhookBody(event);
    const body = JSON.stringify(payload);
    const deliveries = await this.fanOuts.add({
      organizationId: event.organizationId,
      eventId: event.eventId,
      type: event.type,
      projectId: event.projectId,
      payload,
    });
    const item: LaneItem = { e: event.eventId, b: body, a: 0 };
    await this.enqueue(
      event.organizationId,
      deliveries.map((d) => ({ webhookId: d.webhookId, deliveryId: d.id, item })),
    );
    return deliveries.length;
  }

  /**
   * `webhook.deliver` (the test endpoint, and jobs queued before lanes existed): the delivery joins
   * its webhook's lane like any other.
   */
  async deliver(job: WebhookDeliverJob, meta: { attemptsMade: number }): Promise<DeliverOutcome> {
    const item: LaneItem = { e: job.eventId, b: job.body, a: meta.attemptsMade, ...(job.test ? { t: 1 as const } : {}) };
    await this.enqueue(job.organizationId, [{ webhookId: job.webhookId, deliveryId: job.deliveryId, item }]);
    return 'queued';
  }

  private async enqueue(organizationId: string, items: Array<{ webhookId: string; deliveryId: string; item: LaneItem }>) {
    const starts = await this.gate.enqueue(organizationId, items);
    const webhookIds = [...new Set(items.filter((_, i) => starts[i]).map((i) => i.webhookId))];
    if (!webhookIds.length) return;
    try {
      await this.queue.addBulk(
        Queues.webhookDrains,
        'webhook.drain',
        webhookIds.map((webhookId) => ({ payload: { organizationId, webhookId }, opts: drainJobOptions() })),
      );
    } catch (err) {
      await this.gate.disown(organizationId, webhookIds).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Re-queues a drain job for every lane whose drain died (a long Redis or Postgres outage could
   * leave deliveries waiting for the next event of their webhook). Lanes of deleted webhooks keep
   * their marker until it expires. Returns the number of drain jobs queued.
   */
  async sweepLanes(): Promise<number> {
    const lanes = await this.gate.adoptOrphanedLanes();
    if (!lanes.length) return 0;
    const adopted = lanes.map((l) => l.webhookId);
    try {
      const organizations = await this.repo.organizationsOf(adopted);
      const jobs = adopted
        .filter((id) => organizations.has(id))
        .map((webhookId) => ({ payload: { organizationId: organizations.get(webhookId)!, webhookId }, opts: drainJobOptions() }));
      await this.queue.addBulk(Queues.webhookDrains, 'webhook.drain', jobs);
      if (jobs.length) this.logger.warn({ lanes: jobs.length }, 'webhook lanes without a drain job re-queued');
      return jobs.length;
    } catch (err) {
      // The next sweep tries again.
      for (const { webhookId, organizationId } of lanes) await this.gate.disown(organizationId, [webhookId]).catch(() => undefined);
      throw err;
    }
  }

  /**
   * `webhook.drain`: sends the webhook's due deliveries, a batch at a time as the gate allows
   * (rate, in flight), until its lane is empty. Waits up to SLEEP_MAX_MS (the next rate window)
   * happen here, so a busy webhook wakes on time; a longer one (a retry's backoff) throws
   * DeferDeliveryError and the job waits in Redis. After HOLD_MS the job yields its slot and takes
   * its turn again behind the other webhooks.
   */
  async drain(job: WebhookDrainJob): Promise<number> {
    const started = Date.now();
    let sent = 0;
    for (;;) {
      const claim = await this.gate.claim(job.webhookId, job.organizationId, MAX_BATCH);
      if (claim.done) return sent;
      if (claim.deliveries.length) {
        sent += await this.sendBatch(job, claim.deliveries);
        if (this.closing || Date.now() - started > HOLD_MS) throw new DeferDeliveryError(1);
        continue;
      }
      if (this.closing || claim.waitMs > SLEEP_MAX_MS || Date.now() - started > HOLD_MS) throw new DeferDeliveryError(claim.waitMs);
      await this.sleep(claim.waitMs);
    }
  }

  /** One attempt per claimed delivery, concurrently; each attempt is logged before its delivery leaves the lane. */
  private async sendBatch(job: WebhookDrainJob, claimed: ClaimedDelivery[]): Promise<number> {
    const { organizationId, webhookId } = job;
    const { target, key } = await this.target(organizationId, webhookId);
    let sent = 0;
    const settlements = await Promise.all(
      claimed.map(async ({ deliveryId, item, token }): Promise<Settlement> => {
        const settled: Settlement = { token, deliveryId, retry: null, completedAt: performance.now() };
        if (!item) return settled;
        try {
          if (!target || !key || (!target.isActive && !item.t)) {
            await this.repo.abandon(organizationId, deliveryId);
            return settled;
          }
          sent++;
          const retryIn = await this.attempt(organizationId, target, key, deliveryId, item, settled);
          return retryIn === null ? settled : { ...settled, retry: { inMs: retryIn, item: { ...item, a: item.a + 1 } } };
        } catch (err) {
          // Not logged (database down?): the same attempt again later (receivers dedupe on webhook-id).
          this.logger.error({ msg: 'webhook attempt not recorded', organizationId, webhookId, deliveryId, error: String(err) });
          return { ...settled, retry: { inMs: UNRECORDED_RETRY_MS, item } };
        }
      }),
    );
    await this.gate.settle(webhookId, organizationId, settlements);
    return sent;
  }

  /** Sends and logs one attempt; returns the delay before the next one, or null when the delivery is settled. */
  private async attempt(
    organizationId: string,
    target: DeliveryTarget,
    key: Buffer,
    deliveryId: string,
    item: LaneItem,
    settlement: Settlement,
  ): Promise<number | null> {
    const attempt = item.a + 1;
    const headers = signWebhook(key, item.e, Math.floor(Date.now() / 1000), item.b);
    const result = await this.http.post(target.url, { ...headers }, item.b);
    settlement.completedAt = performance.now();
    this.attemptsTotal.inc({ outcome: result.ok ? 'success' : result.gone ? 'gone' : 'failed' });
    this.attemptDuration.observe(result.durationMs / 1000);
    const final = result.ok || result.gone || attempt >= WEBHOOK_MAX_ATTEMPTS;
    const outcome = await this.attempts.record({ organizationId, deliveryId, webhookId: target.id, attempt, result, final });
    if (!outcome.webhookActive) {
      this.targets.delete(`${organizationId}:${target.id}`);
      this.logger.warn({ msg: 'webhook disabled', organizationId, webhookId: target.id, reason: outcome.disabledReason });
      this.audit.record({ organizationId, action: 'webhook.updated', targetId: target.id, changes: { isActive: false, disabledReason: outcome.disabledReason } });
    }
    if (result.ok) return null;
    this.logger.log({
      msg: 'webhook attempt failed',
      organizationId,
      webhookId: target.id,
      deliveryId,
      attempt,
      statusCode: result.statusCode,
      error: result.error,
    });
    return final ? null : retryDelayMs(this.config, attempt);
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
