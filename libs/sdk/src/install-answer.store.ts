import { Injectable } from '@nestjs/common';
import { RedisService } from '@dl/platform/redis';
import type { SdkInstallResponse } from './ingest.dto';

/** What the ingest app decided for an install, kept so a repeated call gets the same answer. */
export interface InstallDecision {
  answer: SdkInstallResponse;
  clickId: string | null;
  ambiguous: boolean;
}

/** 30 days: past that, the stored `installs` row answers. */
const TTL_SECONDS = 30 * 24 * 3600;

/**
 * Install decisions in Redis, keyed by (app, installId): the idempotency of `/install`
 * before the worker has stored the row, and the attribution of events that arrive before it.
 */
@Injectable()
export class InstallAnswerStore {
  constructor(private readonly redis: RedisService) {}

  private key(appId: string, installId: string): string {
    return this.redis.key('sdk', 'install', appId, installId);
  }

  async get(appId: string, installId: string): Promise<InstallDecision | null> {
    const raw = await this.redis.client.get(this.key(appId, installId));
    return raw ? (JSON.parse(raw) as InstallDecision) : null;
  }

  /**
   * Stores the decision unless one exists, in one round trip (`SET … NX GET`); returns the
   * decision that holds: ours (`won`), or the earlier one (a repeated or concurrent call).
   */
  async putIfAbsent(appId: string, installId: string, decision: InstallDecision): Promise<{ decision: InstallDecision; won: boolean }> {
    const previous = (await this.redis.client.call('SET', this.key(appId, installId), JSON.stringify(decision), 'EX', String(TTL_SECONDS), 'NX', 'GET')) as string | null;
    return previous ? { decision: JSON.parse(previous) as InstallDecision, won: false } : { decision, won: true };
  }

  /** Decisions of many installs at once (worker: events arriving before their install row). */
  async many(keys: Array<{ appId: string; installId: string }>): Promise<Map<string, InstallDecision>> {
    const out = new Map<string, InstallDecision>();
    if (!keys.length) return out;
    const names = keys.map((k) => this.key(k.appId, k.installId));
    // MGET needs its keys in one slot: in cluster mode one GET per install, sent together.
    const values = this.redis.cluster ? await Promise.all(names.map((n) => this.redis.client.get(n))) : await this.redis.client.mget(names);
    values.forEach((raw, i) => {
      if (raw) out.set(`${keys[i].appId}:${keys[i].installId}`, JSON.parse(raw) as InstallDecision);
    });
    return out;
  }
}
