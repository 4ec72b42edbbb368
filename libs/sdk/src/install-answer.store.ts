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

  /** Stores the decision unless one exists; returns the decision that holds (ours or the earlier one). */
  async putIfAbsent(appId: string, installId: string, decision: InstallDecision): Promise<{ decision: InstallDecision; won: boolean }> {
    const key = this.key(appId, installId);
    const set = await this.redis.client.set(key, JSON.stringify(decision), 'EX', TTL_SECONDS, 'NX');
    if (set) return { decision, won: true };
    const existing = await this.get(appId, installId);
    return existing ? { decision: existing, won: false } : { decision, won: true };
  }

  /** Decisions of many installs at once (worker: events arriving before their install row). */
  async many(keys: Array<{ appId: string; installId: string }>): Promise<Map<string, InstallDecision>> {
    const out = new Map<string, InstallDecision>();
    if (!keys.length) return out;
    const values = await this.redis.client.mget(keys.map((k) => this.key(k.appId, k.installId)));
    values.forEach((raw, i) => {
      if (raw) out.set(`${keys[i].appId}:${keys[i].installId}`, JSON.parse(raw) as InstallDecision);
    });
    return out;
  }
}
