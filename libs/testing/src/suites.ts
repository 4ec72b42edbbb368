import { INestApplicationContext } from '@nestjs/common';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig } from '@dl/platform/config';
import { PrismaService } from '@dl/platform/db';
import { createTestEnv, RunningApp, startApp, TestEnv } from './harness';
import { SeededOrganization, seedOrganization } from './identity';
import { createServiceContext } from './services';

type SeedOptions = Parameters<typeof seedOrganization>[1];

/** A repository on a fresh test database with two seeded organizations: `acme` to work in, `other` to prove scoping. */
export async function repositoryEnv<R>(
  make: (prisma: PrismaService, env: TestEnv) => R,
  seeds: { acme?: SeedOptions; other?: SeedOptions } = {},
): Promise<{ env: TestEnv; repo: R; acme: SeededOrganization; other: SeededOrganization; acmeId: string; otherId: string }> {
  const env = await createTestEnv();
  const [acme, other] = [await seedOrganization(env, seeds.acme), await seedOrganization(env, seeds.other)];
  return { env, repo: make(env.prisma, env), acme, other, acmeId: acme.organization.id, otherId: other.organization.id };
}

/** One app listening on loopback over a fresh test environment. */
export async function appEnv(
  create: (config: AppConfig) => Promise<NestFastifyApplication>,
  overrides: Record<string, string> = {},
): Promise<{ env: TestEnv; server: RunningApp }> {
  const env = await createTestEnv(overrides);
  return { env, server: await startApp(create, env.config) };
}

/** Closes what a suite started, servers first, then the environment; tolerates a failed start. */
export async function closeAll(...things: ({ close(): Promise<void> } | { teardown(): Promise<void> } | undefined)[]): Promise<void> {
  for (const thing of things) {
    if (!thing) continue;
    if ('close' in thing) await thing.close();
    else await thing.teardown();
  }
}

/** The checks every app answers the same way: `/health` and `/metrics`. */
export function describeAppBasics(name: string, create: (config: AppConfig) => Promise<NestFastifyApplication>, more?: (get: () => RunningApp) => void): void {
  describe(name, () => {
    let env: TestEnv | undefined;
    let server: RunningApp | undefined;
    beforeAll(async () => ({ env, server } = await appEnv(create)));
    afterAll(() => closeAll(server, env));

    it('GET /health answers ok', async () => {
      const res = await fetch(`${server!.url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
    });

    it('GET /metrics answers in Prometheus text format', async () => {
      const res = await fetch(`${server!.url}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('# TYPE http_requests_total counter');
    });

    more?.(() => server!);
  });
}

/** A Nest application context of domain modules (no HTTP) over a fresh test environment. */
export async function serviceEnv(
  modules: Parameters<typeof createServiceContext>[1],
  overrides: Record<string, string> = {},
): Promise<{ env: TestEnv; app: INestApplicationContext }> {
  const env = await createTestEnv(overrides);
  return { env, app: await createServiceContext(env, modules) };
}
