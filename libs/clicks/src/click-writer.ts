import { Injectable, Logger } from '@nestjs/common';
import { bisectWrite } from '@dl/platform/db';
import { DeadLetters, JobQueue, LinkClickedWebhookData, Queues, WebhookEventJob } from '@dl/platform/queue';
import { hourStart } from './click-cube';
import { addTo, ClickedLink, ClickTx, ClickWriteRepository } from './click-write.repository';
import { EnrichedClick } from './enrich';
import { buildRollupRows, buildVisitorRows, linkClickCounts } from './rollups';
import { LinkClickedSubscriptions } from './webhook-subscriptions';

/** What writing a batch of clicks did. */
export interface ClickWriteResult {
  /** Clicks given (after removing duplicate ids within the batch). */
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

/** A ClickWriteResult of nothing, to add to. */
export const noClicksWritten = (): ClickWriteResult => ({ received: 0, inserted: 0, bots: 0, dropped: 0, webhookEvents: 0, deadLettered: 0 });

/** Adds `part`'s counts to `into`. */
export function addClickWriteResult(into: ClickWriteResult, part: ClickWriteResult): void {
  into.received += part.received;
  into.inserted += part.inserted;
  into.bots += part.bots;
  into.dropped += part.dropped;
  into.webhookEvents += part.webhookEvents;
  into.deadLettered += part.deadLettered;
}

/** Runs inside a batch's transaction, after its writes and before COMMIT, with the clicks it stored: a throw rolls the batch back. */
export type BeforeCommit = (stored: readonly EnrichedClick[]) => void | Promise<void>;

type MigrationMetadata = LinkClickedWebhookData['link']['migration_metadata'];

function migrationMetadata(value: unknown): MigrationMetadata {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  return { competitorPlatform: str(v.competitorPlatform), competitorId: str(v.competitorId) };
}

/**
 * The click pipeline's write stage (ClickPipeline batches for it): a batch of enriched clicks,
 * their daily visitors, rollups, cube rows, link counters and `link.clicked` events in ONE transaction.
 * Idempotent per click id (ON CONFLICT (id, clicked_at) DO NOTHING: only newly inserted clicks
 * reach visitors, rollups, counters and webhooks); clicks of unknown links are dropped.
 */
@Injectable()
export class ClickWriter {
  private readonly logger = new Logger(ClickWriter.name);
  /** A whole hour past click_cube_state.rolled_before, as the last batch saw it: a roll-up is due. */
  private rollDue = false;
  private rolling?: Promise<void>;

  constructor(
    private readonly repository: ClickWriteRepository,
    private readonly subscriptions: LinkClickedSubscriptions,
    private readonly jobs: JobQueue,
    private readonly deadLetters: DeadLetters,
  ) {}

  /** Writes the batch; returns what it did and the clicks stored now (those new to the database). */
  async write(batch: readonly EnrichedClick[], beforeCommit?: BeforeCommit): Promise<{ result: ClickWriteResult; stored: EnrichedClick[] }> {
    const byId = new Map<string, EnrichedClick>();
    for (const c of batch) if (!byId.has(c.id)) byId.set(c.id, c);
    const clicks = [...byId.values()];
    const subscribed = await this.subscriptions.subscribed(clicks.filter((c) => !c.isBot).map((c) => c.organizationId));
    // Tenants share a batch: a click the database refuses (data error) must not take the
    // others down. The batch is split until that click is alone, which is dead-lettered
    // (decisions §14); an infrastructure error is rethrown and the jobs retried whole.
    const result = noClicksWritten();
    const parts = await bisectWrite(clicks, (part) => this.writeBatch(part, subscribed, beforeCommit), {
      poisoned: async (click, err) => {
        result.deadLettered++;
        await this.deadLetters.record('clicks', click, err);
      },
    });
    if (this.rollDue) await this.rollCube();
    for (const part of parts) addClickWriteResult(result, part.result);
    result.received = clicks.length;
    return { result, stored: parts.length === 1 ? parts[0].stored : parts.flatMap((part) => part.stored) };
  }

  /** One transaction: clicks, visitors, rollups, link counters and `link.clicked` events. */
  private async writeBatch(
    clicks: EnrichedClick[],
    subscribed: Set<string>,
    beforeCommit: BeforeCommit | undefined,
  ): Promise<{ result: ClickWriteResult; stored: EnrichedClick[] }> {
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
      await beforeCommit?.(inserted.clicks);
      const result: ClickWriteResult = {
        received: clicks.length,
        inserted: inserted.clicks.length,
        bots: inserted.clicks.filter((c) => c.isBot).length,
        dropped: inserted.dropped,
        webhookEvents: events.length,
        deadLettered: 0,
      };
      return { result, stored: inserted.clicks };
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
    if (inserted.length) {
      const rolledBefore = await this.repository.cubeRolledBefore(tx);
      if (hourStart(Date.now()) > rolledBefore.getTime()) this.rollDue = true;
      await this.repository.insertCube(tx, inserted, newVisitors, rolledBefore);
    }
    return { clicks: inserted, dropped: clicks.length - valid.length };
  }

  /**
   * After a committed batch that saw a whole hour not rolled yet: adds the cube's hours up to the
   * current one to click_cube_daily (one roll-up at a time in this process; other workers' wait on
   * the lock and find nothing left). A failure is logged: the next batch tries again.
   */
  private async rollCube(): Promise<void> {
    this.rollDue = false;
    this.rolling ??= this.repository
      .rollCube(new Date(hourStart(Date.now())))
      .then(
        () => undefined,
        (err: unknown) => {
          this.rollDue = true;
          this.logger.error({ err }, 'click cube roll-up failed');
        },
      )
      .finally(() => (this.rolling = undefined));
    await this.rolling;
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
