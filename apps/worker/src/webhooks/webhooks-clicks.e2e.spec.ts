import { Webhook } from 'standardwebhooks';
import { createRedirectApp } from '@dl/apps/redirect';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { appEnv, ClickFixtures, closeAll, Receiver, RunningApp, seedWebhook, startApp, startReceiver, TestEnv, waitFor } from '@dl/testing';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('link.clicked end to end: redirect → click consumer → webhook delivery', () => {
  let env: TestEnv, redirect: RunningApp, worker: RunningApp, receiver: Receiver;

  beforeAll(async () => {
    ({ env, server: redirect } = await appEnv(createRedirectApp));
    worker = await startApp(createWorkerApp, env.config);
    receiver = await startReceiver();
  });

  afterAll(() => closeAll(redirect, worker, receiver, env));

  it('a burst of 100 clicks reaches the receiver as 100 signed spec bodies, at most 10 per second', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const link = await fx.link(org.id, { migrationMetadata: { competitorPlatform: 'branch', competitorId: 'br_42' } });
    const hook = await seedWebhook(env.prisma, org.id, receiver.url);

    for (let i = 0; i < 100; i++) {
      const res = await fetch(`${redirect.url}/${link.shortCode}`, { redirect: 'manual', headers: { 'user-agent': IPHONE } });
      expect(res.status).toBe(302);
    }

    await waitFor(() => receiver.requests.length >= 100, 25_000, 100);
    const times = receiver.requests.map((q) => q.at).sort((a, b) => a - b);
    let maxInSecond = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1000) j++;
      maxInSecond = Math.max(maxInSecond, i - j + 1);
    }
    expect(maxInSecond).toBeLessThanOrEqual(10);

    const ids = new Set<string>();
    for (const q of receiver.requests) {
      const body = new Webhook(hook.secret).verify(q.body, q.headers as Record<string, string>);
      expect(body).toEqual({
        event: 'link.clicked',
        link: { id: link.id, shortCode: link.shortCode, migration_metadata: { competitorPlatform: 'branch', competitorId: 'br_42' } },
        click: { device: 'mobile', country: null, timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) },
      });
      ids.add(q.headers['webhook-id'] as string);
    }
    expect(ids.size).toBe(100);
  }, 40_000);
});
