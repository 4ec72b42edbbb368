import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { hostCodeKey } from '@dl/platform/config';
import { linkInvalidationChannel, RedisService } from '@dl/platform/redis';
import { destinationsOf } from '../destinations';
import { SafetyService } from '../safety.service';
import { blockingReason } from '../screen';
import { ThreatMatcher } from '../threat-matcher';
import { AutoSuspension } from './auto-suspension';
import { BlockedLink, RescreenPg, RescreenRow } from './rescreen.pg';

/** Links read and matched at a time. */
export const RESCREEN_BATCH = 5000;
/** The pass's lock lives this long unless renewed (every third of it while the pass runs). */
const LOCK_TTL_MS = 30_000;

export interface RescreenOutcome {
  /** The feed version the pass matched against. */
  version: string;
  scanned: number;
  blocked: number;
  /** Organizations suspended pending review by this pass. */
  suspended: number;
  ms: number;
}

/** What happens to each batch of newly blocked links once they are stored and the edges told. */
export type BlockedHandler = (links: BlockedLink[], suspended: ReadonlySet<string>) => Promise<void>;

const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** The links of a batch a matcher blocks, with the first blocked destination's reason. */
export function matchBatch(rows: readonly RescreenRow[], matcher: ThreatMatcher): Array<{ id: string; reason: string }> {
  const hits: Array<{ id: string; reason: string }> = [];
  for (const row of rows) {
    for (const [, url] of destinationsOf(row)) {
      const reason = blockingReason(url, matcher);
      if (reason) {
        hits.push({ id: row.id, reason });
        break;
      }
    }
  }
  return hits;
}

/**
 * Re-screening (decisions §22): when the threat feeds change, every active link's destinations
 * are matched again and newly matched links are blocked. Links are read in keyset-paged batches
 * on raw `pg` (the next batch is read while the current one is matched) and matched in memory
 * against the loaded feeds; each batch's blocks are written in one statement, published on the
 * link invalidation channel (the edges then serve the disabled page) and counted for automatic
 * suspension. One worker runs a pass for a feed version: a lock in Redis, and the version last
 * re-screened, so the other workers skip it.
 */
@Injectable()
export class RescreenService {
  private readonly logger = new Logger(RescreenService.name);

  constructor(
    private readonly pg: RescreenPg,
    private readonly safety: SafetyService,
    private readonly redis: RedisService,
    private readonly autoSuspension: AutoSuspension,
  ) {}

  /** One pass over every active link with the feeds loaded now (no lock: `runForCurrentFeeds` takes it). */
  async pass(onBlocked: BlockedHandler = async () => undefined, opts: { batch?: number; aborted?: () => boolean } = {}): Promise<RescreenOutcome> {
    const started = Date.now();
    const { matcher, version } = this.safety.snapshot;
    const batch = opts.batch ?? RESCREEN_BATCH;
    let scanned = 0;
    let blocked = 0;
    let suspended = 0;
    let next = this.pg.page(null, batch);
    for (;;) {
      const rows = await next;
      if (!rows.length) break;
      next = rows.length === batch && !opts.aborted?.() ? this.pg.page(rows[rows.length - 1].id, batch) : Promise.resolve([]);
      next.catch(() => undefined); // awaited next turn; a failure of this batch must not leave it unhandled
      scanned += rows.length;
      const links = await this.pg.block(matchBatch(rows, matcher));
      if (!links.length) continue;
      blocked += links.length;
      await this.invalidate(links);
      const orgs = await this.autoSuspension.record(links);
      suspended += orgs.size;
      await onBlocked(links, orgs);
    }
    const outcome = { version, scanned, blocked, suspended, ms: Date.now() - started };
    this.logger.log(outcome, 'links re-screened');
    return outcome;
  }

  /**
   * A pass for the feeds loaded now, unless one was done for this version: 'busy' when another
   * worker holds the lock (try again later), 'done' when this version was re-screened already.
   */
  async runForCurrentFeeds(onBlocked?: BlockedHandler, opts: { aborted?: () => boolean } = {}): Promise<RescreenOutcome | 'busy' | 'done'> {
    const { version } = this.safety.snapshot;
    const doneKey = this.redis.key('safety', 'rescreen', 'version');
    const lockKey = this.redis.key('safety', 'rescreen', 'lock');
    if (!version || (await this.redis.client.get(doneKey)) === version) return 'done';
    const token = randomUUID();
    if ((await this.redis.client.set(lockKey, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return 'busy';
    const renew = setInterval(() => {
      this.redis.client.eval(RENEW, 1, lockKey, token, String(LOCK_TTL_MS)).catch(() => undefined);
    }, LOCK_TTL_MS / 3);
    renew.unref();
    try {
      if ((await this.redis.client.get(doneKey)) === version) return 'done';
      const outcome = await this.pass(onBlocked, opts);
      if (!opts.aborted?.()) await this.redis.client.set(doneKey, version);
      return outcome;
    } finally {
      clearInterval(renew);
      await this.redis.client.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
    }
  }

  private async invalidate(links: readonly BlockedLink[]): Promise<void> {
    const pipeline = this.redis.client.pipeline();
    const channel = linkInvalidationChannel(this.redis);
    for (const l of links) pipeline.publish(channel, hostCodeKey(l.domainName, l.shortCode));
    await pipeline.exec();
  }
}
