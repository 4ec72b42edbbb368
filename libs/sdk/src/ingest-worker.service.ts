import { Injectable, Logger } from '@nestjs/common';
import { bisectWrite } from '@dl/platform/db';
import { DeadLetters, InstallAttributedWebhookData, JobQueue, PixelEventJob, Queues, SdkEventJob, SdkEventRecord, SdkInstallJob, SdkOpenJob } from '@dl/platform/queue';
import { ConversionSalesService } from '@dl/conversions';
import { InAppEventRow, InAppEventsRepository } from './in-app-events.repository';
import { IngestStoreRepository, StoredInstallRow } from './ingest-store.repository';
import { InstallAnswerStore, InstallDecision } from './install-answer.store';

/** `data` of `install.attributed` (receivers get `{event: 'install.attributed', install: <this>}`). */
export function installAttributedData(row: StoredInstallRow): InstallAttributedWebhookData {
  return {
    id: row.id,
    installId: row.installId,
    appId: row.appId,
    platform: row.platform,
    osVersion: row.osVersion,
    deviceModel: row.deviceModel,
    appVersion: row.appVersion,
    matchType: row.matchType,
    ambiguous: row.ambiguous,
    clickId: row.clickId,
    attributedAt: row.attributedAt?.toISOString() ?? null,
    link: { id: row.linkId, shortCode: row.shortCode },
  };
}

/** Consumers of the `ingest` queue: persist installs, sessions, in-app events and pixel events. */
@Injectable()
export class IngestWorkerService {
  private readonly logger = new Logger(IngestWorkerService.name);

  constructor(
    private readonly store: IngestStoreRepository,
    private readonly inAppEvents: InAppEventsRepository,
    private readonly decisions: InstallAnswerStore,
    private readonly queue: JobQueue,
    private readonly deadLetters: DeadLetters,
    private readonly conversions: ConversionSalesService,
  ) {}

  /**
   * A single-row job whose data the database refuses (e.g. queued by an older edge that did
   * not refuse NUL) can never succeed: recorded as a dead letter and dropped instead of
   * failing its attempts (decisions §14). Infrastructure errors are rethrown (retried).
   */
  private async orDeadLetter(name: string, job: unknown, write: () => Promise<void>): Promise<void> {
    await bisectWrite([job], () => write(), { poisoned: (item, err) => this.deadLetters.record(`ingest:${name}`, item, err) });
  }

  /** Stores the install once; an attributed one fans out `install.attributed` (stable event id, so a retry sends it once). */
  async install(job: SdkInstallJob): Promise<void> {
    await this.orDeadLetter('sdk.install', job, () => this.storeInstall(job));
  }

  private async storeInstall(job: SdkInstallJob): Promise<void> {
    const row = await this.store.saveInstall(job.organizationId, await this.withHeldDecision(job));
    if (!row) return;
    await this.store.touchApps(job.organizationId, [job.appId], new Date(job.receivedAt));
    if (!row.linkId) return;
    await this.queue.add(Queues.webhooks, 'webhook.event', {
      eventId: `install.attributed.${row.id}`,
      organizationId: job.organizationId,
      type: 'install.attributed',
      projectId: row.projectId,
      occurredAt: (row.attributedAt ?? row.createdAt).toISOString(),
      data: installAttributedData(row),
    });
  }

  /**
   * The ingest app queues an install's job in the same round trip as it stores the decision
   * (`SET NX`): when two first calls race, a job may carry the decision that lost. The decision
   * kept in Redis is the one every caller was answered, so it wins over the job's own.
   */
  private async withHeldDecision(job: SdkInstallJob): Promise<SdkInstallJob> {
    let held: InstallDecision | null = null;
    try {
      held = await this.decisions.get(job.appId, job.installId);
    } catch (err) {
      // Redis down: the job's decision (the ingest app answered 503 unless it was stored in Redis).
      this.logger.warn({ err: (err as Error).message }, 'install decision unavailable, storing the job\'s');
    }
    if (!held) return job;
    return { ...job, clickId: held.clickId, linkId: held.answer.linkId, matchType: held.answer.matchType, ambiguous: held.ambiguous };
  }

  async open(job: SdkOpenJob): Promise<void> {
    await this.orDeadLetter('sdk.open', job, async () => {
      await this.store.saveSession(job.organizationId, job);
      await this.store.touchApps(job.organizationId, [job.appId], new Date(job.openedAt));
    });
  }

  async pixel(job: PixelEventJob): Promise<void> {
    await this.orDeadLetter('pixel.event', job, async () => {
      await this.store.savePixelEvent(job.organizationId, job);
      await this.store.touchPixelSite(job.organizationId, job.siteId, new Date(job.occurredAt));
    });
    if (job.type === 'conversion' && job.value !== null && job.currency !== null) {
      const linkId = await this.store.pixelEventLink(job.organizationId, job.id);
      await this.conversions.record({ organizationId: job.organizationId, id: job.id, linkId, value: job.value, currency: job.currency, at: new Date(job.occurredAt), source: 'pixel' });
    }
  }

  /**
   * One statement per organization of the batch; events inherit their install's link (stored
   * row, else the ingest decision). Organizations share the job: an event the database
   * refuses is isolated by splitting its organization's rows, dead-lettered and dropped; the
   * rest (of every organization) is stored once (decisions §14).
   */
  async events(job: SdkEventJob): Promise<number> {
    const byOrg = new Map<string, SdkEventRecord[]>();
    for (const e of job.events) {
      const list = byOrg.get(e.organizationId);
      if (list) list.push(e);
      else byOrg.set(e.organizationId, [e]);
    }
    let inserted = 0;
    for (const [organizationId, records] of byOrg) {
      const links = await this.installLinks(organizationId, records);
      const rows: InAppEventRow[] = records.map((r) => {
        const link = links.get(`${r.appId}:${r.installId}`);
        return {
          id: r.id,
          organizationId,
          appId: r.appId,
          installId: r.installId,
          linkId: link?.linkId ?? null,
          clickId: link?.clickId ?? null,
          eventName: r.eventName,
          eventData: r.eventData,
          eventTimestamp: new Date(r.eventTimestamp),
          revenue: r.revenue,
          currency: r.currency,
          attributed: Boolean(link?.linkId),
          receivedAt: new Date(r.receivedAt),
        };
      });
      const parts = await bisectWrite(rows, (part) => this.inAppEvents.insertBatch(organizationId, part), {
        poisoned: (row, err) => this.deadLetters.record('ingest:sdk.event', row, err),
      });
      for (const n of parts) inserted += n;
      for (const row of rows) {
        if (row.eventName !== 'revenue' || row.revenue === null || row.currency === null) continue;
        await this.conversions.record({ organizationId, id: row.id, linkId: row.linkId, value: row.revenue, currency: row.currency, at: row.eventTimestamp, source: 'sdk' });
      }
      const appIds = [...new Set(records.map((r) => r.appId))];
      await this.store.touchApps(organizationId, appIds, new Date(records[records.length - 1].receivedAt));
    }
    return inserted;
  }

  private async installLinks(
    organizationId: string,
    records: SdkEventRecord[],
  ): Promise<Map<string, { linkId: string | null; clickId: string | null }>> {
    const keys = new Map<string, { appId: string; installId: string }>();
    for (const r of records) keys.set(`${r.appId}:${r.installId}`, { appId: r.appId, installId: r.installId });
    const out = new Map<string, { linkId: string | null; clickId: string | null }>();
    for (const row of await this.store.installLinks(organizationId, [...keys.values()])) {
      out.set(`${row.appId}:${row.installId}`, { linkId: row.linkId, clickId: row.clickId });
    }
    const missing = [...keys.entries()].filter(([k]) => !out.has(k)).map(([, v]) => v);
    if (missing.length) {
      try {
        for (const [k, d] of await this.decisions.many(missing)) out.set(k, { linkId: d.answer.linkId, clickId: d.clickId });
      } catch (err) {
        // Redis down: the events are still stored (unattributed when their install is not stored yet).
        this.logger.warn({ err: (err as Error).message }, 'install decisions unavailable');
      }
    }
    return out;
  }
}
