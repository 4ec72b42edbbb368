import { Queue } from 'bullmq';
import { createWorkerApp } from '@dl/apps/worker';
import { clickEvent, closeAll, createTestEnv, deliveriesOf, enqueueEvents, eventQueue, Receiver, RunningApp, seedOrg, seedWebhook, startApp, startReceiver, TestEnv, waitFor } from '@dl/testing';

describe('webhook delivery SSRF guard (WEBHOOK_ALLOW_CIDRS empty)', () => {
  let env: TestEnv, worker: RunningApp, queue: Queue, receiver: Receiver;

  beforeAll(async () => {
    env = await createTestEnv({ WEBHOOK_RETRY_BASE_MS: '20' });
    // The receiver is on loopback, which only the test allow-list (127.0.0.1/32) permits: not here.
    worker = await startApp(createWorkerApp, env.withOverrides({ WEBHOOK_ALLOW_CIDRS: '', WEBHOOK_RETRY_BASE_MS: '20' }));
    queue = eventQueue(env.config);
    receiver = await startReceiver();
  });

  afterAll(() => closeAll(queue, worker, receiver, env));

  const cases: Array<[string, (port: number) => string, string]> = [
    ['127.0.0.1', (p) => `http://127.0.0.1:${p}/hook`, 'Destination refused: 127.0.0.1 is a loopback address'],
    ['0x7f000001', (p) => `http://0x7f000001:${p}/hook`, 'Destination refused: 127.0.0.1 is a loopback address'],
    ['2130706433', (p) => `http://2130706433:${p}/hook`, 'Destination refused: 127.0.0.1 is a loopback address'],
    ['[::ffff:127.0.0.1]', (p) => `http://[::ffff:127.0.0.1]:${p}/hook`, 'Destination refused: [::ffff:7f00:1] is a loopback address'],
    ['[::1]', (p) => `http://[::1]:${p}/hook`, 'Destination refused: [::1] is a loopback address'],
    ['localhost (resolved at connect time)', (p) => `http://localhost:${p}/hook`, 'Destination refused: localhost resolves to a loopback address'],
    ['169.254.169.254 (metadata)', () => 'http://169.254.169.254/latest/meta-data', 'Destination refused: 169.254.169.254 is a cloud metadata address'],
    ['10.0.0.1 (private)', () => 'http://10.0.0.1/hook', 'Destination refused: 10.0.0.1 is a private address'],
    ['100.64.0.1 (CGNAT)', () => 'http://100.64.0.1/hook', 'Destination refused: 100.64.0.1 is a carrier-grade NAT address'],
  ];

  it.each(cases)('refuses %s at connect time: every attempt fails, nothing reaches the receiver', async (_name, url, error) => {
    const orgId = await seedOrg(env.prisma, 'Ssrf');
    const hook = await seedWebhook(env.prisma, orgId, url(receiver.port));
    await enqueueEvents(queue, [clickEvent(orgId)]);

    const [delivery] = await waitFor(async () => {
      const d = await deliveriesOf(env.prisma, hook.id);
      return d[0]?.status === 'failed' ? d : null;
    });
    expect(delivery.attemptsLog).toHaveLength(4);
    for (const a of delivery.attemptsLog) expect(a).toMatchObject({ statusCode: null, error });
    expect(receiver.requests).toHaveLength(0);
  });
});
