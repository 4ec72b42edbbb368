import { Injectable, Logger } from '@nestjs/common';
import { linkInvalidationChannel, RedisService, scanKeys } from '@dl/platform/redis';
import { OrganizationPurgeRepository } from './organization-purge.repository';

/**
 * The worker's side of scheduled deletion (decisions §20): on the day, every row of the
 * organization (its click partitions' rows and cached QR images included), then its Redis keys
 * (every key naming its id: rate windows, credential cache, counters), and the edge's cached links.
 * API-key cache entries are keyed by the key's hash: they expire within 30 s and then find no key.
 */
@Injectable()
export class OrganizationDeletionService {
  private readonly logger = new Logger(OrganizationDeletionService.name);

  constructor(
    private readonly repo: OrganizationPurgeRepository,
    private readonly redis: RedisService,
  ) {}

  /** Deletes every organization whose date has come; answers how many. */
  async deleteDue(now: Date): Promise<number> {
    let deleted = 0;
    for (const id of await this.repo.due(now)) if (await this.deleteOrganization(id, now)) deleted++;
    return deleted;
  }

  async deleteOrganization(organizationId: string, now: Date): Promise<boolean> {
    const result = await this.repo.purge(organizationId, now);
    if (!result) return false;
    await this.invalidateLinks(result.linkKeys);
    const keys = await this.deleteRedisKeys(organizationId);
    this.logger.log({ organizationId, rows: result.rows, users: result.deletedUsers, redisKeys: keys }, 'organization deleted');
    return true;
  }

  /** The edge instances drop the links from their caches (they already answered 404 since the deletion was scheduled). */
  private async invalidateLinks(linkKeys: string[]): Promise<void> {
    const channel = linkInvalidationChannel(this.redis);
    for (let i = 0; i < linkKeys.length; i += 1000) {
      const pipeline = this.redis.client.pipeline();
      for (const key of linkKeys.slice(i, i + 1000)) pipeline.publish(channel, key);
      await pipeline.exec();
    }
  }

  /** Every key under this app's prefix that names the organization's id. */
  private async deleteRedisKeys(organizationId: string): Promise<number> {
    let count = 0;
    await scanKeys(this.redis.client, `${this.redis.prefix}:*${organizationId}*`, async (keys) => {
      // One DEL per key: in a cluster the keys of a page live in different slots.
      for (const key of keys) count += await this.redis.client.del(key);
    });
    return count;
  }
}
