import { Injectable } from '@nestjs/common';
import { ClickWriteRepository } from './click-write.repository';

const TTL_MS = 5_000;

/**
 * Which organizations have an active webhook subscribed to `link.clicked`, cached
 * per organization for a few seconds so clicks of organizations without webhooks
 * cost one query per organization per TTL (batched across a click batch).
 */
@Injectable()
export class LinkClickedSubscriptions {
  private readonly cache = new Map<string, { subscribed: boolean; until: number }>();

  constructor(private readonly repository: ClickWriteRepository) {}

  async subscribed(organizationIds: Iterable<string>, now = Date.now()): Promise<Set<string>> {
    const result = new Set<string>();
    const stale: string[] = [];
    for (const id of new Set(organizationIds)) {
      const hit = this.cache.get(id);
      if (hit && hit.until > now) {
        if (hit.subscribed) result.add(id);
      } else stale.push(id);
    }
    if (stale.length) {
      const found = await this.repository.organizationsWithWebhook(stale, 'link.clicked');
      if (this.cache.size > 100_000) this.cache.clear();
      for (const id of stale) {
        this.cache.set(id, { subscribed: found.has(id), until: now + TTL_MS });
        if (found.has(id)) result.add(id);
      }
    }
    return result;
  }
}
