import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Pool } from 'pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaClient } from './generated/prisma/client';
import { createPgPool } from './pg-pool';
import { ReadPool, throttledWarning } from './read-pool';
import { databaseErrorText } from './errors';

/**
 * The Prisma client of an app. Only repositories use it. Hot paths (click batches,
 * rollups, analytics aggregates) use `$queryRaw`/`$executeRaw` through the same pool.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  /** The primary's pool (the read replica's client falls back to it). */
  readonly pool: Pool;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Our own pool (error handlers on the pool and on every client, see createPgPool), ended with the client.
    const pool = createPgPool(config.DATABASE_URL, { max: 10, connectionTimeoutMillis: 5_000 });
    super({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
    this.pool = pool;
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}

const replicaLogger = new Logger('ReadReplica');
/** One warning line per 30 s at most for the whole process (every read pool shares it). */
const warnFallback = throttledWarning((fallbacks, err) =>
  replicaLogger.warn({ fallbacks, error: databaseErrorText(err) }, 'read replica unavailable: reads go to the primary'),
);

/**
 * A read pool on `readUrl` that answers from `primary` while the replica is down. For the hot
 * paths' own pools (see PrismaReadService).
 */
export function createReadPool(readUrl: string, primary: Pool, max: number): ReadPool {
  return new ReadPool(readUrl, primary, { max, onFallback: warnFallback });
}

/**
 * The client for reads that may lag the primary by the replica's replay delay: analytics,
 * reports, lists and exports (docs/decisions/platform.md). With `DATABASE_READ_URL` it is a
 * second Prisma client on a ReadPool (replica first, the primary while the replica is down);
 * without it, it IS the primary's PrismaService (no second pool). Reads that must see the
 * caller's own write (a GET after a create, ownership checks before an aggregate) and every
 * write use PrismaService.
 */
/** Each read client's pool (kept outside the class: tests pass a PrismaService where a PrismaReadService is typed). */
const readPools = new WeakMap<object, ReadPool>();

export class PrismaReadService extends PrismaClient {
  private constructor(readPool: ReadPool) {
    super({ adapter: new PrismaPg(readPool, { disposeExternalPool: true }) });
    readPools.set(this, readPool);
  }

  static create(config: AppConfig, primary: PrismaService): PrismaReadService {
    if (!config.DATABASE_READ_URL) return primary as unknown as PrismaReadService;
    return new PrismaReadService(createReadPool(config.DATABASE_READ_URL, primary.pool, 10));
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
    // A client that never ran a query does not dispose its adapter's pool: end it here, or its
    // stream check keeps firing after the app closed.
    const pool = readPools.get(this);
    if (pool && !pool.ending) await pool.end();
  }
}

/** A transaction client, as passed to `$transaction(async (tx) => ...)`. */
export type PrismaTx = Omit<
  PrismaClient,
  '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'
>;
