import { Global, Inject, Injectable, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis, { RedisOptions } from 'ioredis';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';

/** Options shared by every Redis connection: fail fast instead of queueing commands forever. */
export function redisOptions(extra: RedisOptions = {}): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    lazyConnect: false,
    retryStrategy: (times) => Math.min(times * 200, 2000),
    ...extra,
  };
}

/**
 * The app's general-purpose Redis connection (caches, counters, pub/sub publishing).
 * Keys must go through `key()` so tests (and tenants of one Redis) never collide.
 */
@Injectable()
export class RedisService implements OnModuleInit, OnModuleDestroy {
  readonly client: Redis;
  readonly prefix: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.prefix = config.REDIS_PREFIX;
    this.client = new Redis(config.REDIS_URL, redisOptions());
    // Errors are reported by health checks and callers; an unhandled 'error' event would crash.
    this.client.on('error', () => undefined);
  }

  /** Waits (briefly) for the first connection so the app starts ready; never fails boot. */
  async onModuleInit(): Promise<void> {
    if (this.client.status === 'ready') return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done);
        resolve();
      };
      const timer = setTimeout(done, 2000);
      timer.unref();
      this.client.once('ready', done);
    });
  }

  key(...parts: string[]): string {
    return `${this.prefix}:${parts.join(':')}`;
  }

  /** A new dedicated connection (for subscribers or blocking commands). Caller closes it. */
  duplicate(extra: RedisOptions = {}): Redis {
    const conn = new Redis(this.config.REDIS_URL, redisOptions(extra));
    conn.on('error', () => undefined);
    return conn;
  }

  get isReady(): boolean {
    return this.client.status === 'ready';
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}

@Global()
@Module({ providers: [RedisService], exports: [RedisService] })
export class RedisModule {}
