import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { clickEvent, createTestEnv, enqueueEvents, eventQueue, Receiver, RunningApp, seedOrg, seedWebhook, startApp, startReceiver, TestEnv, waitFor } from '@dl/testing';

/** The largest number of requests seen in any 1-second window. */
function maxPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end] - sorted[start] >= 1000) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe('webhook delivery: rate limit and tenant isolation', () => {
  let env: TestEnv;
  let worker: RunningApp;
  let queue: Queue;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    env = await createTestEnv({
      WEBHOOK_TIMEOUT_MS: '3000',
      WEBHOOK_RETRY_BASE_MS: '60000',
      // Few slots on purpose: without the in-flight caps, a dead endpoint would fill them all.
      WEBHOOK_CONCURRENCY: '30',
      WEBHOOK_MAX_IN_FLIGHT: '5',
      WEBHOOK_ORG_MAX_IN_FLIGHT: '10',
    });
    worker = await startApp(createWorkerApp, env.config);
    queue = eventQueue(env.config);
  });

  afterAll(async () => {
    await queue?.close();
    await worker?.close();
    await Promise.all(receivers.map((r) => r.close()));
    await env?.teardown();
  });

  it('delivers a burst of 100 events to one webhook at no more than 10 per second, each in one attempt', async () => {
    const r = await startReceiver();
    receivers.push(r);
    const orgId = await seedOrg(env.prisma, 'Burst');
    const hook = await seedWebhook(env.prisma, orgId, r.url);
    await enqueueEvents(queue, Array.from({ length: 100 }, () => clickEvent(orgId)));

    await waitFor(() => r.requests.length >= 100, 20_000, 100);
    const times = r.requests.map((q) => q.at);
    expect(maxPerSecond(times)).toBeLessThanOrEqual(10);
    expect(Math.max(...times) - Math.min(...times)).toBeGreaterThanOrEqual(9000);
    expect(new Set(r.requests.map((q) => q.headers['webhook-id'])).size).toBe(100);
    await waitFor(async () => (await env.prisma.webhookDelivery.count({ where: { webhookId: hook.id, status: 'success' } })) === 100);
    // Deferrals by the rate gate are not attempts.
    expect(await env.prisma.webhookAttempt.count({ where: { delivery: { webhookId: hook.id } } })).toBe(100);
  }, 30_000);

  it("does not delay another tenant's deliveries while one tenant's endpoints hang", async () => {
    const dead = await startReceiver(() => undefined); // accepts and never answers
    const fast = await startReceiver();
    receivers.push(dead, fast);
    const slowOrg = await seedOrg(env.prisma, 'Slow');
    const okOrg = await seedOrg(env.prisma, 'Fine');
    for (let i = 0; i < 4; i++) await seedWebhook(env.prisma, slowOrg, `${dead.url}?w=${i}`);
    for (let i = 0; i < 5; i++) await seedWebhook(env.prisma, okOrg, `${fast.url}?w=${i}`);

    // 4 dead webhooks × 25 events: 100 deliveries that would each hold a slot for 3 s.
    await enqueueEvents(queue, Array.from({ length: 25 }, () => clickEvent(slowOrg)));
    await waitFor(() => dead.requests.length >= 10, 5000);

    const sent = Date.now();
    await enqueueEvents(queue, [clickEvent(okOrg), clickEvent(okOrg)]);
    await waitFor(() => fast.requests.length >= 10, 5000);
    const latencies = fast.requests.map((q) => q.at - sent);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    // The slow tenant never held more than its organization's in-flight cap.
    expect(dead.maxOpen).toBeLessThanOrEqual(10);
  }, 30_000);
});
