import { randomUUID } from 'node:crypto';
import { Tier } from '@dl/platform/db';
import { AppProcess, childPids, configEnv, createTestEnv, seedOrganization, listeningCount, spawnApp, TestEnv, waitUntil } from '@dl/testing';

/**
 * Many processes (WEB_CONCURRENCY, node:cluster; decisions §18) for the api and ingest: each
 * production entry runs as 2 processes behind one port. A plan's rate limit is one counter for the
 * organization whichever process answers, concurrent creates land once each, and every SDK event
 * accepted by either ingest process is stored once. (The redirect and worker: apps/redirect/src/processes.e2e.spec.ts.)
 */
describe('2 api and 2 ingest processes (WEB_CONCURRENCY=2)', () => {
  let env: TestEnv;
  let api: AppProcess;
  let ingest: AppProcess;
  let worker: AppProcess;

  /** A request on a connection of its own: node:cluster hands connections out to the processes in turn. */
  const call = async (url: string, init: RequestInit & { headers: Record<string, string> }) => {
    const res = await fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } });
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
  };
  const statuses = (results: Array<{ status: number }>) =>
    results.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});

  beforeAll(async () => {
    env = await createTestEnv();
    // A loaded CI machine can keep Redis past the limiter's 250 ms, and a process that stops
    // waiting counts alone: this spec is about the shared count, so it waits for Redis.
    const base = { ...configEnv(env.config), LOG_LEVEL: 'info', RATE_LIMIT_REDIS_TIMEOUT_MS: '5000' };
    [api, ingest, worker] = await Promise.all([
      spawnApp('api', { ...base, WEB_CONCURRENCY: '2' }, 120_000),
      spawnApp('ingest', { ...base, WEB_CONCURRENCY: '2' }, 120_000),
      spawnApp('worker', base, 120_000),
    ]);
    await waitUntil('both api processes', () => listeningCount(api, 'api') === 2, 120_000);
    await waitUntil('both ingest processes', () => listeningCount(ingest, 'ingest') === 2, 120_000);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([api?.stop(), ingest?.stop(), worker?.stop()]);
    await env?.teardown();
  });

  it('runs the api and ingest as a primary and 2 processes each', () => {
    expect(childPids(api)).toHaveLength(2);
    expect(childPids(ingest)).toHaveLength(2);
  });

  it("a FREE organization's 10 requests a minute are one count across both api processes", async () => {
    const org = await seedOrganization(env);
    const headers = { authorization: `Bearer ${org.owner.apiKey}` };
    const results = await Promise.all(Array.from({ length: 16 }, () => call(`${api.url}/api/usage`, { headers })));
    expect(statuses(results)).toEqual({ 200: 10, 429: 6 });
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
  }, 60_000);

  it('concurrent creates through both api processes land once each', async () => {
    const org = await seedOrganization(env, { tier: Tier.BUSINESS });
    const headers = { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' };
    const codes = Array.from({ length: 40 }, (_, i) => `procs${i}`);
    const results = await Promise.all(
      codes.map((shortCode) => call(`${api.url}/api/links`, { method: 'POST', headers, body: JSON.stringify({ templateId: org.template.id, originalUrl: `https://example.com/${shortCode}`, customCode: shortCode }) })),
    );
    expect(statuses(results)).toEqual({ 201: 40 });
    // The same codes again: every one a conflict, whichever process answers.
    const again = await Promise.all(
      codes.slice(0, 10).map((shortCode) => call(`${api.url}/api/links`, { method: 'POST', headers, body: JSON.stringify({ templateId: org.template.id, originalUrl: 'https://example.com/x', customCode: shortCode }) })),
    );
    expect(statuses(again)).toEqual({ 409: 10 });
    expect(await env.prisma.link.count({ where: { organizationId: org.organization.id } })).toBe(40);
  }, 60_000);

  it('SDK events accepted by either ingest process are stored exactly once', async () => {
    const org = await seedOrganization(env, { tier: Tier.BUSINESS });
    const created = await call(`${api.url}/api/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Shop iOS', platform: 'ios', bundleId: 'com.example.shop', teamId: 'ABCDE12345' }),
    });
    expect(created.status).toBe(201);
    const token = created.body!.appToken as string;
    const TOTAL = 200;
    const installs = Array.from({ length: 10 }, () => randomUUID());
    const results: Array<{ status: number }> = [];
    let next = 0;
    const sender = async () => {
      while (next < TOTAL) {
        const i = next++;
        results.push(
          await call(`${ingest.url}/api/sdk/v1/event`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ installId: installs[i % installs.length], eventName: 'two_processes', properties: { i } }),
          }),
        );
      }
    };
    await Promise.all(Array.from({ length: 8 }, sender));
    expect(statuses(results)).toEqual({ 202: TOTAL });
    const count = async () =>
      (
        await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM in_app_events WHERE organization_id = ${org.organization.id}::uuid AND event_name = 'two_processes'`
      )[0].n;
    await waitUntil('every event stored', async () => (await count()) >= TOTAL, 60_000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await count()).toBe(TOTAL);
  }, 120_000);
});
