import { Tier } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { ClickFixtures, closeAll, createTestEnv, Receiver, RunningApp, startApp, startReceiver, TestEnv } from '@dl/testing';
import { WebhookRateGate } from '@dl/webhooks';
import { createWorkerApp } from '../app';
import { WebhookLaneSweeper } from './webhook-lane.sweeper';

/**
 * A lane whose drain job died (here: deliveries put in the lane, no drain job, and the drain
 * marker gone, as after a long outage) is re-queued by the sweep and delivered without waiting
 * for the webhook's next event; a lane with a live drain is left alone.
 */
describe('webhook lane sweep', () => {
  let env: TestEnv, worker: RunningApp, receiver: Receiver;

  beforeAll(async () => {
    env = await createTestEnv({ WEBHOOK_LANE_SWEEP_MS: '600000' });
    receiver = await startReceiver();
    worker = await startApp(createWorkerApp, env.config);
  });

  afterAll(() => closeAll(worker, receiver, env));

  it('re-queues an orphaned lane once, and its deliveries go out', async () => {
    const fx = new ClickFixtures(env.prisma);
    const org = await fx.organization(Tier.PRO);
    const webhook = await env.prisma.webhook.create({
      data: { organizationId: org.id, url: receiver.url, events: ['link.created'], secret: 'whsec_dGVzdA==' },
    });
    const deliveries = await Promise.all(
      [1, 2, 3].map((i) =>
        env.prisma.webhookDelivery.create({
          data: { organizationId: org.id, webhookId: webhook.id, eventId: `evt_sweep_${i}`, eventType: 'link.created', payload: { n: i } },
        }),
      ),
    );
    const gate = worker.app.get(WebhookRateGate);
    const redis = worker.app.get(RedisService);
    await gate.enqueue(
      org.id,
      deliveries.map((d, i) => ({ webhookId: webhook.id, deliveryId: d.id, item: { e: `evt_sweep_${i + 1}`, b: JSON.stringify({ n: i + 1 }), a: 0 } })),
    );
    // The drain job that enqueue asked for is never queued, and its marker is gone.
    await redis.client.del(redis.slotKey(org.id, 'wh', webhook.id, 'drain'));
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.requests.length).toBe(0);

    const sweeper = worker.app.get(WebhookLaneSweeper);
    expect(await sweeper.sweep()).toBe(1);
    // The marker is back: a second sweep (or another worker's) queues nothing more.
    expect(await sweeper.sweep()).toBe(0);
    const until = Date.now() + 15_000;
    while (receiver.requests.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(receiver.requests.map((q) => q.headers['webhook-id']).sort()).toEqual(['evt_sweep_1', 'evt_sweep_2', 'evt_sweep_3']);
  }, 30_000);
});
