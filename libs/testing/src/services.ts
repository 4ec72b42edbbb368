import { DynamicModule, INestApplicationContext, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthModule } from '@dl/auth';
import { ErrorBody, PlatformModule, renderError } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';
import type { TestEnv } from './harness';

/**
 * For medium specs: domain modules wired as an app wires them (config, Postgres, Redis, queues,
 * identity and plans) on the test file's database and Redis prefix, without HTTP. Close it
 * before env.teardown().
 */
export async function createServiceContext(env: TestEnv, modules: Array<Type | DynamicModule>): Promise<INestApplicationContext> {
  @Module({ imports: [PlatformModule.forRoot(env.config), QueueModule, AuthModule, ...modules] })
  class ServiceTestModule {}
  return NestFactory.createApplicationContext(ServiceTestModule, { logger: false, abortOnError: false });
}

/** The contract's error body (`{error, message, statusCode, validation?}`) a call rejects with. */
export async function errorBodyOf(call: Promise<unknown>): Promise<ErrorBody> {
  try {
    await call;
  } catch (err) {
    return renderError(err).body;
  }
  throw new Error('expected the call to fail');
}

/** What a call rejects with (for a repository's own error or the database's, e.g. `sqlState(err)`). */
export async function rejectionOf(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}
