import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { createRedisClient, scanKeys } from '@dl/platform/redis';
import { testConfig } from './config';
import { createTestDatabase, TestDatabase } from './database';
import { PrivatePostgres } from './private-servers';

export interface RunningApp {
  app: NestFastifyApplication;
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  close(): Promise<void>;
}

/** Starts a real HTTP server for an app on a free loopback port (or `port`, when its address must be known first). */
export async function startApp(
  create: (config: AppConfig) => Promise<NestFastifyApplication>,
  config: AppConfig,
  port = 0,
): Promise<RunningApp> {
  const app = await create(config);
  await app.listen(port, '127.0.0.1');
  const address = app.getHttpServer().address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${bound}`, close: () => app.close() };
}

/**
 * Deletes every Redis key of a test prefix (app keys and BullMQ's), on one server or, with
 * `clusterNodes` (REDIS_CLUSTER_NODES), on every master of a cluster.
 */
export async function flushPrefix(redisUrl: string, prefix: string, clusterNodes?: string): Promise<void> {
  const redis = createRedisClient({ REDIS_URL: redisUrl, REDIS_CLUSTER_NODES: clusterNodes }, { lazyConnect: true, enableOfflineQueue: true });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    for (const pattern of [`${prefix}:*`, `{${prefix}:bull}:*`]) {
      // Keys of a page may sit in different cluster slots: one DEL each.
      await scanKeys(redis, pattern, async (keys) => {
        await Promise.all(keys.map((k) => redis.del(k)));
      }, 1000);
    }
  } finally {
    redis.disconnect();
  }
}

export interface TestEnv {
  db: TestDatabase;
  config: AppConfig;
  /** A Prisma client on the test database, for arranging and asserting. */
  prisma: PrismaService;
  /** Builds another config on the same database and Redis prefix (e.g. a second instance). */
  withOverrides(overrides: Record<string, string>): AppConfig;
  teardown(): Promise<void>;
}

/**
 * Per-test-file environment: an isolated database and Redis prefix. Use in
 * beforeAll/afterAll:  `env = await createTestEnv(); ... await env.teardown();`
 */
export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const db = await createTestDatabase();
  const config = testConfig(db.url, overrides);
  const prisma = new PrismaService(config);
  return {
    db,
    config,
    prisma,
    withOverrides: (more) => testConfig(db.url, { ...overrides, REDIS_PREFIX: config.REDIS_PREFIX, ...more }),
    teardown: async () => {
      await prisma.$disconnect();
      await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX, config.REDIS_CLUSTER_NODES);
      await db.drop();
    },
  };
}

export interface PrivatePostgresEnv {
  pg: PrivatePostgres;
  config: AppConfig;
  /** A Prisma client on the private cluster's database (fails while it is stopped). */
  prisma: PrismaService;
  teardown(): Promise<void>;
}

/**
 * An environment on a private Postgres cluster (migrated database) and the shared Redis under
 * its own prefix, for tests that stop and start Postgres. About 10 s to make.
 */
export async function createPrivatePostgresEnv(overrides: Record<string, string> = {}): Promise<PrivatePostgresEnv> {
  const pg = await PrivatePostgres.create();
  try {
    const url = await pg.createDatabase();
    const config = testConfig(url, overrides);
    const prisma = new PrismaService(config);
    return {
      pg,
      config,
      prisma,
      teardown: async () => {
        await prisma.$disconnect().catch(() => undefined);
        await flushPrefix(config.REDIS_URL, config.REDIS_PREFIX, config.REDIS_CLUSTER_NODES).catch(() => undefined);
        await pg.drop();
      },
    };
  } catch (err) {
    await pg.drop();
    throw err;
  }
}
