import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { PrismaClient } from './generated/prisma/client';

/**
 * The Prisma client of an app. Only repositories use it. Hot paths (click batches,
 * rollups, analytics aggregates) use `$queryRaw`/`$executeRaw` through the same pool.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    super({ adapter: new PrismaPg({ connectionString: config.DATABASE_URL, max: 10 }) });
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
