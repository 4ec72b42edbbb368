import { Injectable, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RedisService } from '@dl/platform/redis';

/**
 * The ingest hot path's own Redis connection, with auto-pipelining: the commands of every
 * request in flight during one tick (rate limit, credential, install decision) leave in one write.
 */
@Injectable()
export class IngestRedis implements OnModuleDestroy {
  readonly client: Redis;

  constructor(private readonly redis: RedisService) {
    this.client = redis.duplicate({ enableAutoPipelining: true });
  }

  key(...parts: string[]): string {
    return this.redis.key(...parts);
  }

  /** A key sharing a cluster slot with the other keys of `tag` (see RedisService.slotKey). */
  slotKey(tag: string, ...parts: string[]): string {
    return this.redis.slotKey(tag, ...parts);
  }

  onModuleDestroy(): void {
    this.client.disconnect();
  }
}
