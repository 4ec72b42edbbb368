import { Inject, Injectable, Logger } from '@nestjs/common';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { bisectWrite } from '@dl/platform/db';
import { GeoIp } from '@dl/platform/geo';
import { DeadLetters, JobQueue, LinkClickedWebhookData, Queues, WebhookEventJob } from '@dl/platform/queue';
import { addTo, ClickedLink, ClickIngestRepository, ClickTx } from './click-ingest.repository';
import { EnrichedClick, enrichClick } from './enrich';
import { buildRollupRows, buildVisitorRows, linkClickCounts } from './rollups';
import { LinkClickedSubscriptions } from './webhook-subscriptions';

export interface IngestBatchResult {
  /** Jobs given (after removing duplicate ids within the batch). */
  received: number;
  /** Clicks stored now (a replayed id is not counted again). */
  inserted: number;
  /** Of the inserted, flagged as bots. */
  bots: number;
  /** Clicks of links that no longer exist (or not in the claimed organization): dropped. */
  dropped: number;
  /** `link.clicked` events queued. */
  webhookEvents: number;
  /** Clicks the database refused on their own (poison pills): recorded in dead_letters and dropped. */
  deadLettered: number;
}

/** Test seams: simulate a crash inside the batch's transaction or right after its commit. */
export interface IngestFaults {
  beforeCommit?: (inserted: EnrichedClick[]) => void | Promise<void>;
  afterCommit?: (result: IngestBatchResult) => void | Promise<void>;
}

type MigrationMetadata = LinkClickedWebhookData['link']['migration_metadata'];

function migrationMetadata(value: unknown): MigrationMetadata {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  return { competitorPlatform: str(v.competitorPlatform), competitorId: str(v.competitorId) };
}

/**
 * The click pipeline's write side: enrichment, storage, rollups, link counters and
 * `link.clicked` events, for a batch of raw clicks, in ONE transaction.
 *
 * `ingestBatch(rawClicks)` is the single entry point for every producer of clicks:
 * the worker's `clicks` consumer calls it with each micro-batch of `click.captured`
 * jobs, and the operator CLI's `demo:seed` calls it with synthetic raw clicks
 * (`ClickCapturedJob`s with a fresh UUID `id`, the link's `id` and `organizationId`,
 * a past `clickedAt`, an IP, a user agent, a referrer, an accept-language and the
 * `utm_*` query), so seeded traffic is enriched and rolled up exactly like live
 * traffic. Pass batches of up to a few thousand clicks; it is idempotent per click
 * id (ON CONFLICT (id, clicked_at) DO NOTHING: only newly inserted clicks reach rollups,
 * visitors, counters and webhooks), and clicks of unknown links are dropped.
 */
@Injectable()
export class ClickIngestService {
  private readonly logger = new Logger(ClickIngestService.name);
  private geo: GeoIp | undefined;
  /** See IngestFaults (tests only). */
  faults: IngestFaults = {};

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ClickIngestRepository,
    private readonly subscriptions: LinkClickedSubscriptions,
    private readonly jobs: JobQueue,
    private readonly deadLetters: DeadLetters,
  ) {}

  /** The GeoIP database, opened on first use (about 60 MB in memory). */
  geoLookup(): GeoIp {
    if (!this.geo) {
      this.geo = GeoIp.city(this.config.GEOIP_DATABASE_PATH);
      if (!this.geo.available) this.logger.warn('No GeoIP city database found: clicks are stored without geography');
    }
    return this.geo;
  }

  async ingestBatch(rawClicks: ClickCapturedJob[]): Promise<IngestBatchResult> {
    const now = new Date();
    const geo = this.geoLookup();
    return this.ingestEnriched(rawClicks.map((raw) => enrichClick(raw, geo, now)));
  }

  /**
   * The same, for clicks already enriched with `enrichClick` (the worker enriches
   * each job as it arrives, while the previous batch is in the database).
   */
  async ingestEnriched(enriched: EnrichedClick[]): Promise<IngestBatchResult> {
    const byId = new Map<string, EnrichedClick>();
    for (const c of enriched) if (!byId.has(c.id)) byId.set(c.id, c);
    const clicks = [...byId.values()];
    const subscribed = await this.subscriptions.subscribed(clicks.filter((c) => !c.isBot).map((c) => c.organizationId));
    // Tenants share a batch: a click the database refuses (data error) must not take the
    // others down. The batch is split until that click is alone, which is dead-lettered
    // (decisions §14); an infrastructure error is rethrown and the jobs retried whole.
    let deadLettered = 0;
    const parts = await bisectWrite(clicks, (part) => this.writeBatch(part, subscribed), {
      poisoned: async (click, err) => {
        deadLettered++;
        await this.deadLetters.record('clicks', click, err);
      },
    });
    const result: IngestBatchResult = { received: clicks.length, inserted: 0, bots: 0, dropped: 0, webhookEvents: 0, deadLettered };
    for (const part of parts) {
      result.inserted += part.inserted;
      result.bots += part.bots;
      result.dropped += part.dropped;
      result.webhookEvents += part.webhookEvents;
    }
    await this.faults.afterCommit?.(result);
    return result;
  }

  /** One transaction: clicks, visitors, rollups, link counters and `link.clicked` events. */
  private async writeBatch(clicks: EnrichedClick[], subscribed: Set<string>): Promise<IngestBatchResult> {
    return this.repository.transaction(async (tx) => {
      const inserted = await this.store(tx, clicks);
      const links = await this.repository.incrementLinkCounts(tx, linkClickCounts(inserted.clicks));
      const events = this.linkClickedEvents(inserted.clicks, links, subscribed);
      // Queued before the commit, with the click id as job id: a rolled-back batch that is
      // retried queues the same job again (de-duplicated), a committed one never loses it.
      if (events.length) {
        await this.jobs.addBulk(
          Queues.webhooks,
          'webhook.event',
          events.map((e) => ({ payload: e, opts: { jobId: e.eventId } })),
        );
      }
      await this.faults.beforeCommit?.(inserted.clicks);
      return {
        received: clicks.length,
        inserted: inserted.clicks.length,
        bots: inserted.clicks.filter((c) => c.isBot).length,
        dropped: inserted.dropped,
        webhookEvents: events.length,
        deadLettered: 0,
      };
    });
  }

  private async store(tx: ClickTx, clicks: EnrichedClick[]): Promise<{ clicks: EnrichedClick[]; dropped: number }> {
    // Link id → the organizations its clicks claim (one, unless a job lies): no key string per click.
    const claimed = new Map<string, Set<string>>();
    for (const c of clicks) addTo(claimed, c.linkId, c.organizationId);
    const existing = await this.repository.existingLinks(tx, claimed);
    const valid = clicks.filter((c) => existing.get(c.linkId)?.has(c.organizationId) === true);
    const inserted = await this.repository.insertClicks(tx, valid);
    const newVisitors = await this.repository.insertDailyVisitors(tx, buildVisitorRows(inserted));
    await this.repository.upsertRollups(tx, buildRollupRows(inserted, newVisitors));
    return { clicks: inserted, dropped: clicks.length - valid.length };
  }

  private linkClickedEvents(clicks: EnrichedClick[], links: ClickedLink[], subscribed: Set<string>): WebhookEventJob[] {
    if (!subscribed.size) return [];
    const linkById = new Map(links.map((l) => [l.id, l]));
    const events: WebhookEventJob[] = [];
    for (const c of clicks) {
      const link = linkById.get(c.linkId);
      if (c.isBot || !link || !subscribed.has(c.organizationId)) continue;
      const data: LinkClickedWebhookData = {
        event: 'link.clicked',
        link: { id: link.id, shortCode: link.shortCode, migration_metadata: migrationMetadata(link.migrationMetadata) },
        click: { device: c.deviceType, country: c.countryCode, timestamp: c.clickedAt.toISOString() },
      };
      events.push({
        eventId: c.id,
        organizationId: c.organizationId,
        type: 'link.clicked',
        projectId: link.projectId,
        occurredAt: c.clickedAt.toISOString(),
        data,
      });
    }
    return events;
  }
}
