import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { INestApplicationContext } from '@nestjs/common';
import { AccountsService, ApiKeysService, AuthModule, MembersService } from '@dl/auth';
import { AppConfig, ConfigModule } from '@dl/platform/config';
import { DbModule, PrismaService } from '@dl/platform/db';
import { RedisModule, RedisService } from '@dl/platform/redis';
import { AbuseDeskModule, AbuseReportsService, SuspensionsService } from '@dl/safety';

export interface IdentityContext {
  config: AppConfig;
  accounts: AccountsService;
  members: MembersService;
  keys: ApiKeysService;
  prisma: PrismaService;
  abuse: AbuseReportsService;
  suspensions: SuspensionsService;
  redis: RedisService;
  close(): Promise<void>;
}

/**
 * The identity services of the api, outside any HTTP server: the CLI and `npm start`
 * go through the same rules (plan limits, password hashing, cache invalidation).
 */
export async function createIdentityContext(config: AppConfig): Promise<IdentityContext> {
  @Module({ imports: [ConfigModule.forRoot(config), DbModule, RedisModule, AuthModule, AbuseDeskModule] })
  class CliModule {}
  const app: INestApplicationContext = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  await app.init();
  return {
    config,
    accounts: app.get(AccountsService),
    members: app.get(MembersService),
    keys: app.get(ApiKeysService),
    prisma: app.get(PrismaService),
    abuse: app.get(AbuseReportsService),
    suspensions: app.get(SuspensionsService),
    redis: app.get(RedisService),
    close: () => app.close(),
  };
}
