import request from 'supertest';
import { AccountsService } from '@dl/auth';
import { authHeader, closeAll, createTestEnv, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Decisions §14: after a downgrade the window holds more requests than the new limit;
// `Retry-After` must be the time until enough of them have left, so that a client that
// waits exactly that long and retries once is admitted. A 6-second window keeps it fast.
describe('Retry-After when more than the limit are in the window (downgrade)', () => {
  let env: TestEnv, server: RunningApp;

  beforeAll(async () => {
    env = await createTestEnv({
      RATE_LIMIT_WINDOW_MS: '6000',
      PLAN_LIMITS: JSON.stringify({ FREE: { requestsPerMinute: 2 }, PRO: { requestsPerMinute: 6 } }),
    });
    server = await startApp(createApiApp, env.config);
  });
  afterAll(() => closeAll(server, env));

  it('a FREE organization downgraded from PRO that waits exactly retryAfter and retries once is admitted', async () => {
    const org = await seedOrganization(env, { tier: 'PRO' });
    const get = () => request(server.url).get('/api/usage').set(authHeader(org.owner.apiKey));
    // Three requests now, three about 2.5 s later: six in the window, PRO's limit.
    for (let i = 0; i < 3; i++) await get().expect(200);
    const firstBatchAt = Date.now();
    await sleep(2500);
    for (let i = 0; i < 3; i++) await get().expect(200);

    await server.app.get(AccountsService).setTier(org.organization.id, 'FREE');
    const refused = await get().expect(429);
    expect(refused.body).toEqual({
      error: 'Too Many Requests',
      message: expect.any(String),
      statusCode: 429,
      retryAfter: expect.any(Number),
    });
    const retryAfter = refused.body.retryAfter as number;
    expect(refused.headers['retry-after']).toBe(String(retryAfter));
    expect(refused.headers['x-ratelimit-limit']).toBe('2');
    // Not just until the oldest leaves (that still leaves 3 > 2 in the window): until the 5th does.
    const oldestLeavesIn = (firstBatchAt + 6000 - Date.now()) / 1000;
    expect(retryAfter).toBeGreaterThan(Math.ceil(oldestLeavesIn));

    await sleep(retryAfter * 1000);
    const admitted = await get();
    expect([admitted.status, admitted.body.retryAfter]).toEqual([200, undefined]);
  }, 30_000);
});
