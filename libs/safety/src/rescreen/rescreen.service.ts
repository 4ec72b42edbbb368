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
/** Links asked of Safe Browsing at a time by the re-check. */
const RECHECK_PAGE = 200;
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
  async pass(onBlocked?: BlockedHandler, opts: { batch?: number; aborted?: () => boolean } = {}): Promise<RescreenOutcome> {
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
      const applied = await this.applyBlocks(matchBatch(rows, matcher), onBlocked);
      blocked += applied.blocked;
      suspended += applied.suspended;
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
    if (!version || (await this.redis.client.get(doneKey)) === version) return 'done';
    return this.withLock('rescreen', async () => {
      if ((await this.redis.client.get(doneKey)) === version) return 'done';
      const outcome = await this.pass(onBlocked, opts);
      if (!opts.aborted?.()) await this.redis.client.set(doneKey, version);
      return outcome;
    });
  }

  /**
   * Links Safe Browsing could not answer for when they were stored (`safety_checked_at` still
   * null), asked again a page at a time: a match blocks the link as a feed match does, a clean
   * answer marks it checked. Stops at a page Safe Browsing still cannot answer (the next round
   * starts over); 'busy' when another worker is at it.
   */
  async recheckPending(onBlocked?: BlockedHandler): Promise<{ checked: number; blocked: number } | 'busy'> {
    if (!this.safety.safeBrowsingEnabled) return { checked: 0, blocked: 0 };
    return this.withLock('sb-recheck', async () => {
      let after: string | null = null;
      let checked = 0;
      let blocked = 0;
      for (;;) {
        const rows = await this.pg.unchecked(after, RECHECK_PAGE);
        if (!rows.length) break;
        after = rows[rows.length - 1].id;
        const urls = rows.map((r) => destinationsOf(r).map(([, u]) => u));
        const verdicts = await this.safety.screen(urls.flat());
        const hits: Array<{ id: string; reason: string }> = [];
        const clean: string[] = [];
        let pending = false;
        let k = 0;
        for (const [i, row] of rows.entries()) {
          const mine = verdicts.slice(k, (k += urls[i].length));
          const hit = mine.find((v) => v.status === 'blocked');
          if (hit) hits.push({ id: row.id, reason: hit.reason ?? 'blocked' });
          else if (mine.some((v) => v.pending)) pending = true;
          else clean.push(row.id);
        }
        blocked += (await this.applyBlocks(hits, onBlocked)).blocked;
        await this.pg.markChecked(clean);
        checked += clean.length + hits.length;
        if (pending) break;
      }
      return { checked, blocked };
    });
  }

  /** Blocks matched links, tells the edges, counts them for suspension, then hands them on. */
  private async applyBlocks(hits: Array<{ id: string; reason: string }>, onBlocked?: BlockedHandler): Promise<{ blocked: number; suspended: number }> {
    const links = await this.pg.block(hits);
    if (!links.length) return { blocked: 0, suspended: 0 };
    await this.invalidate(links);
    const orgs = await this.autoSuspension.record(links);
    await onBlocked?.(links, orgs);
    return { blocked: links.length, suspended: orgs.size };
  }

  /** Runs `fn` holding the named lock (renewed while it runs); 'busy' when another process holds it. */
  private async withLock<T>(name: string, fn: () => Promise<T>): Promise<T | 'busy'> {
    const key = this.redis.key('safety', name, 'lock');
    const token = randomUUID();
    if ((await this.redis.client.set(key, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return 'busy';
    const renew = setInterval(() => {
      this.redis.client.eval(RENEW, 1, key, token, String(LOCK_TTL_MS)).catch(() => undefined);
    }, LOCK_TTL_MS / 3);
    renew.unref();
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await this.redis.client.eval(RELEASE, 1, key, token).catch(() => undefined);
    }
  }

  private async invalidate(links: readonly BlockedLink[]): Promise<void> {
    const pipeline = this.redis.client.pipeline();
    const channel = linkInvalidationChannel(this.redis);
    for (const l of links) pipeline.publish(channel, hostCodeKey(l.domainName, l.shortCode));
    await pipeline.exec();
  }
}
