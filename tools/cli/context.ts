import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { INestApplicationContext } from '@nestjs/common';
import { AccountsService, ApiKeysService, AuthModule, MembersService } from '@dl/auth';
import { AppConfig, ConfigModule } from '@dl/platform/config';
import { DbModule, PrismaService } from '@dl/platform/db';
import { RedisModule } from '@dl/platform/redis';

export interface IdentityContext {
  config: AppConfig;
  accounts: AccountsService;
  members: MembersService;
  keys: ApiKeysService;
  prisma: PrismaService;
  close(): Promise<void>;
}

/**
 * The identity services of the api, outside any HTTP server: the CLI and `npm start`
 * go through the same rules (plan limits, password hashing, cache invalidation).
 */
export async function createIdentityContext(config: AppConfig): Promise<IdentityContext> {
  @Module({ imports: [ConfigModule.forRoot(config), DbModule, RedisModule, AuthModule] })
  class CliModule {}
  const app: INestApplicationContext = await NestFactory.createApplicationContext(CliModule, { logger: false, abortOnError: false });
  await app.init();
  return {
    config,
    accounts: app.get(AccountsService),
    members: app.get(MembersService),
    keys: app.get(ApiKeysService),
    prisma: app.get(PrismaService),
    close: () => app.close(),
  };
}
