import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaClient } from './generated/prisma/client';
import { createPgPool } from './pg-pool';

/**
 * The Prisma client of an app. Only repositories use it. Hot paths (click batches,
 * rollups, analytics aggregates) use `$queryRaw`/`$executeRaw` through the same pool.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Our own pool (error handlers on the pool and on every client, see createPgPool), ended with the client.
    const pool = createPgPool(config.DATABASE_URL, { max: 10, connectionTimeoutMillis: 5_000 });
    super({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}

/** A transaction client, as passed to `$transaction(async (tx) => ...)`. */
export type PrismaTx = Omit<
  PrismaClient,
  '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'
>;
