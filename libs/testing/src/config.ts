import { randomBytes } from 'node:crypto';
import { AppConfig, loadConfig } from '@dl/platform/config';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

/** A config for one test file: its own database, its own Redis key prefix, quiet logs. */
export function testConfig(databaseUrl: string, overrides: Record<string, string> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `t${randomBytes(5).toString('hex')}`,
    // The cluster CI step (TEST_REDIS_CLUSTER=1): every app of the run on the harness's Redis
    // Cluster, except a test that names its own Redis (a private server it stops, a relay).
    ...(process.env.TEST_REDIS_CLUSTER_NODES && !overrides.REDIS_URL ? { REDIS_CLUSTER_NODES: process.env.TEST_REDIS_CLUSTER_NODES } : {}),
    JWT_SECRET: TEST_JWT_SECRET,
    SHORT_LINK_BASE_URL: 'http://sho.rt',
    WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    WORKER_SCHEDULES_ENABLED: 'false',
    // Seeding signs up many users: the cheapest accepted scrypt cost (tests of the real cost override it).
    PASSWORD_SCRYPT_LOG2N: '14',
    // Every test signs up and logs in from 127.0.0.1: no per-IP auth limit unless a test sets one.
    AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    // Tests read the live month right after changing its data: no cache unless a test sets one.
    REPORT_LIVE_CACHE_SECONDS: '0',
    // Every seeded organization is brand new: no first-day link cap (decisions §22) unless a test sets one.
    NEW_ORG_LINK_LIMIT: '1000000',
    ...overrides,
  });
}
