import { randomUUID } from 'node:crypto';
import { RedisService } from '@dl/platform/redis';
import { createTestEnv, TestEnv } from '@dl/testing';
import { LaneItem, WebhookRateGate } from './rate-gate';

// The lanes and the gate on a real Redis (the test's own key prefix).
describe(WebhookRateGate.name, () => {
  let env: TestEnv;
  let redis: RedisService;
  let gate: WebhookRateGate;
  const org = randomUUID();
  const item = (n: number): LaneItem => ({ e: `evt-${n}`, b: `{"n":${n}}`, a: 0 });
  const fill = (webhookId: string, n: number, from = 0) =>
    gate.enqueue(
      org,
      Array.from({ length: n }, (_, i) => ({ webhookId, deliveryId: `d-${from + i}`, item: item(from + i) })),
    );
  const done = (completedAt = performance.now()) => ({ retry: null, completedAt });

  beforeAll(async () => {
    env = await createTestEnv({ WEBHOOK_MAX_PER_SECOND: '10', WEBHOOK_MAX_IN_FLIGHT: '10', WEBHOOK_ORG_MAX_IN_FLIGHT: '15' });
    redis = new RedisService(env.config);
    await redis.onModuleInit();
    gate = new WebhookRateGate(redis, env.config);
  });

  afterAll(async () => {
    redis?.client.disconnect();
    await env?.teardown();
  });

  it('asks for one drain job per webhook, and for a new one once its lane has run empty', async () => {
    const hook = randomUUID();
    expect(await fill(hook, 3)).toEqual([true, false, false]);
    expect(await fill(randomUUID(), 1)).toEqual([true]);
    expect(await fill(hook, 1, 3)).toEqual([false]);

    const claim = await gate.claim(hook, org, 50);
    expect(claim).toMatchObject({ done: false, waitMs: 0 });
    if (claim.done) throw new Error('unreachable');
    expect(claim.deliveries.map((d) => [d.deliveryId, d.item])).toEqual([0, 1, 2, 3].map((n) => [`d-${n}`, item(n)]));
    await gate.settle(hook, org, claim.deliveries.map((d) => ({ token: d.token, deliveryId: d.deliveryId, ...done() })));

    expect(await gate.claim(hook, org, 50)).toEqual({ done: true });
    expect(await fill(hook, 1, 4)).toEqual([true]);
  });

  it('sends a backlog in whole windows of at most WEBHOOK_MAX_PER_SECOND, and a trickle at once', async () => {
    const hook = randomUUID();
    await fill(hook, 25);
    const first = await gate.claim(hook, org, 50);
    if (first.done) throw new Error('unreachable');
    expect(first.deliveries).toHaveLength(10);
    // Still in flight: nothing more, a short wait.
    expect(await gate.claim(hook, org, 50)).toEqual({ done: false, waitMs: 50, deliveries: [] });
    await gate.settle(hook, org, first.deliveries.map((d) => ({ token: d.token, deliveryId: d.deliveryId, ...done() })));
    // Completed: the window counts one second from completion.
    const next = await gate.claim(hook, org, 50);
    expect(next).toMatchObject({ done: false, deliveries: [] });
    expect(next.done === false && next.waitMs).toBeGreaterThan(900);

    // A webhook with an attempt in its window and only a few due: they go at once (no waiting for a full window).
    const quiet = randomUUID();
    await fill(quiet, 1);
    const one = await gate.claim(quiet, org, 50);
    if (one.done) throw new Error('unreachable');
    await gate.settle(quiet, org, one.deliveries.map((d) => ({ token: d.token, deliveryId: d.deliveryId, ...done() })));
    await fill(quiet, 2, 1);
    const two = await gate.claim(quiet, org, 50);
    expect(two.done === false && two.deliveries.map((d) => d.deliveryId)).toEqual(['d-1', 'd-2']);
  });

  it('caps attempts in flight per organization across its webhooks', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const busyOrg = randomUUID();
    await gate.enqueue(busyOrg, Array.from({ length: 10 }, (_, i) => ({ webhookId: a, deliveryId: `a-${i}`, item: item(i) })));
    await gate.enqueue(busyOrg, Array.from({ length: 10 }, (_, i) => ({ webhookId: b, deliveryId: `b-${i}`, item: item(i) })));
    const fromA = await gate.claim(a, busyOrg, 50);
    const fromB = await gate.claim(b, busyOrg, 50);
    expect(fromA.done === false && fromA.deliveries).toHaveLength(10);
    expect(fromB.done === false && fromB.deliveries).toHaveLength(5);
  });

  it('re-schedules a retry after its backoff with its new item, and only then claims it again', async () => {
    const hook = randomUUID();
    await fill(hook, 1);
    const claim = await gate.claim(hook, org, 50);
    if (claim.done) throw new Error('unreachable');
    const [d] = claim.deliveries;
    await gate.settle(hook, org, [{ token: d.token, deliveryId: d.deliveryId, retry: { inMs: 300, item: { ...item(0), a: 1 } }, completedAt: performance.now() }]);

    const early = await gate.claim(hook, org, 50);
    expect(early.done === false && early.waitMs).toBeGreaterThan(200);
    await new Promise((r) => setTimeout(r, 350));
    const again = await gate.claim(hook, org, 50);
    expect(again.done === false && again.deliveries.map((x) => x.item)).toEqual([{ ...item(0), a: 1 }]);
  });
});
