import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { Queue } from 'bullmq';
import request from 'supertest';
import { createIngestApp } from '@dl/apps/ingest';
import { createRedirectApp } from '@dl/apps/redirect';
import { ClickCapturedJob } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { bullOptions, Queues, SdkEventRecord } from '@dl/platform/queue';
import { clickEvent, ClickFixtures, createTestEnv, enqueueEvents, eventQueue, rawClick, Receiver, RunningApp, SdkFixtures, seedWebhook, startApp, startReceiver, TestEnv, waitForValue } from '@dl/testing';
import { AttemptRecorder } from '@dl/webhooks';
import { createWorkerApp } from './app';

const UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

/** One HTTP/1.1 GET written byte for byte (Node's client refuses NUL in headers): the status, or 0 when the socket closed. */
function rawVisit(url: string, path: string, headers: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n${headers}\r\n`, 'latin1');
    });
    let head = '';
    socket.on('data', (d: Buffer) => (head += d.toString('latin1')));
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on('error', () => undefined);
  });
}

/**
 * Decisions §14, end to end on the real apps: NUL bytes and lone surrogates sent by a visitor,
 * an SDK or a webhook receiver never lose another tenant's click, event or attempt (exact
 * counts for a second organization whose items share the batch), and what the database
 * refuses is isolated, recorded in `dead_letters` and dropped.
 */
describe('poison pills: one tenant\'s bad data never loses another\'s', () => {
  let env: TestEnv;
  let redirect: RunningApp;
  let ingest: RunningApp;
  let worker: RunningApp;
  let clicks: Queue;
  let ingestQueue: Queue;
  let fx: ClickFixtures;
  let sdkFx: SdkFixtures;
  let orgA: string;
  let orgB: string;
  const receivers: Receiver[] = [];

  const storedClicks = async (linkId: string) =>
    (await env.prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM clicks WHERE link_id = ${linkId}::uuid`)[0].n;
  const deadLetters = (queue: string) => env.prisma.deadLetter.findMany({ where: { queue }, orderBy: { createdAt: 'asc' } });

  beforeAll(async () => {
    env = await createTestEnv({ WEBHOOK_RETRY_BASE_MS: '60000' });
    [redirect, ingest, worker] = await Promise.all([
      startApp(createRedirectApp, env.config),
      startApp(createIngestApp, env.config),
      startApp(createWorkerApp, env.config),
    ]);
    clicks = new Queue(Queues.clicks, bullOptions(env.config));
    ingestQueue = new Queue(Queues.ingest, bullOptions(env.config));
    fx = new ClickFixtures(env.prisma);
    sdkFx = new SdkFixtures(env.prisma);
    orgA = (await fx.organization(Tier.PRO, 'Attacker')).id;
    orgB = (await fx.organization(Tier.PRO, 'Bystander')).id;
  });

  afterAll(async () => {
    await clicks?.close();
    await ingestQueue?.close();
    await Promise.all([redirect?.close(), ingest?.close(), worker?.close()]);
    await Promise.all(receivers.map((r) => r.close()));
    await env?.teardown();
  });

  describe('clicks', () => {
    it('a visitor\'s NUL in the query string, user agent or referrer is stripped at the edge; the other tenant\'s clicks are all stored', async () => {
      const linkA = await fx.link(orgA);
      const linkB = await fx.link(orgB);
      const visitsB = Array.from({ length: 40 }, () => request(redirect.url).get(`/${linkB.shortCode}`).set('user-agent', UA));
      const hostile = [
        rawVisit(redirect.url, `/${linkA.shortCode}?utm_source=a%00b&utm_campaign=%ED%A0%80x`, `User-Agent: ${UA}\r\n`),
        rawVisit(redirect.url, `/${linkA.shortCode}`, `User-Agent: Mozilla/5.0 \u0000 evil\r\n`),
        rawVisit(redirect.url, `/${linkA.shortCode}`, `User-Agent: ${UA}\r\nReferer: https://evil.example/\u0000x\r\n`),
      ];
      const [answersB, statusesA] = await Promise.all([Promise.all(visitsB), Promise.all(hostile)]);
      expect(answersB.every((r) => r.status === 302)).toBe(true);
      // The query-string NUL reaches the app and is stripped; Node's parser refuses a NUL in a header (400).
      expect(statusesA[0]).toBe(302);
      for (const s of statusesA.slice(1)) expect([302, 400]).toContain(s);
      const redirectedA = statusesA.filter((s) => s === 302).length;

      await waitForValue(() => storedClicks(linkB.id), (n) => n >= 40);
      await waitForValue(() => storedClicks(linkA.id), (n) => n >= redirectedA);
      await new Promise((r) => setTimeout(r, 500));
      expect(await storedClicks(linkB.id)).toBe(40);
      expect(await storedClicks(linkA.id)).toBe(redirectedA);
      const withUtm = await env.prisma.click.findFirstOrThrow({ where: { linkId: linkA.id, utmSource: { not: null } } });
      expect(withUtm.utmSource).toBe('ab');
      expect(withUtm.utmCampaign).toMatch(/^\uFFFD+x$/);
    });

    it('a click the database refuses (queued by an older edge) is dead-lettered alone; the rest of its multi-tenant batch is stored once', async () => {
      const linkA = await fx.link(orgA);
      const linkB = await fx.link(orgB);
      const good: ClickCapturedJob[] = [
        ...Array.from({ length: 30 }, () => rawClick({ id: linkB.id, organizationId: orgB })),
        ...Array.from({ length: 5 }, () => rawClick({ id: linkA.id, organizationId: orgA })),
      ];
      const poison = [
        rawClick({ id: linkA.id, organizationId: orgA }, { userAgent: 'evil\u0000agent' }),
        rawClick({ id: linkA.id, organizationId: orgA }, { referrer: 'https://evil.example/\u0000' }),
        rawClick({ id: linkA.id, organizationId: orgA }, { query: { utm_source: 'x\u0000y' } }),
      ];
      // One job, one transaction: the poison shares the batch with the other tenant's clicks.
      const batch = [...good.slice(0, 10), poison[0], ...good.slice(10, 20), poison[1], ...good.slice(20), poison[2]];
      const job = await clicks.add('click.batch', { clicks: batch }, { jobId: `poison-${randomUUID()}` });
      await waitForValue(async () => (await job.isCompleted()) || (await job.isFailed()), Boolean);
      expect(await job.isCompleted()).toBe(true);

      expect(await storedClicks(linkB.id)).toBe(30);
      expect(await storedClicks(linkA.id)).toBe(5);
      const stored = await env.prisma.click.findMany({ where: { linkId: { in: [linkA.id, linkB.id] } }, select: { id: true } });
      expect(new Set(stored.map((c) => c.id))).toEqual(new Set(good.map((c) => c.id)));
      expect((await env.prisma.link.findUniqueOrThrow({ where: { id: linkB.id } })).clickCount).toBe(30);

      const letters = await deadLetters('clicks');
      expect(letters.map((l) => (l.payload as { id: string }).id).sort()).toEqual(poison.map((p) => p.id).sort());
      for (const l of letters) expect(l.error).toMatch(/^22021: invalid byte sequence for encoding "UTF8": 0x00/);
      expect((letters[0].payload as { userAgent: string }).userAgent).toBe('evilagent');

      const metrics = await request(worker.url).get('/metrics').expect(200);
      expect(metrics.text).toMatch(/dead_letters_total\{queue="clicks"\} 3/);

      // A replay of the same job stores nothing twice.
      const again = await clicks.add('click.batch', { clicks: batch }, { jobId: `poison-${randomUUID()}` });
      await waitForValue(async () => (await again.isCompleted()) || (await again.isFailed()), Boolean);
      expect(await storedClicks(linkB.id)).toBe(30);
      expect((await env.prisma.link.findUniqueOrThrow({ where: { id: linkB.id } })).clickCount).toBe(30);
    });
  });

  describe('SDK events', () => {
    it('NUL or a lone surrogate in an event (name, property value or key) → 400 Validation error naming the field', async () => {
      const app = await sdkFx.app(orgA);
      const post = (body: unknown) =>
        request(ingest.url).post('/api/sdk/v1/event').set('Authorization', `Bearer ${app.token}`).send(body as object);
      const installId = randomUUID();
      const cases: Array<[unknown, string]> = [
        [{ installId, eventName: 'x\u0000' }, 'eventName'],
        [{ installId, eventName: 'ok', properties: { plan: 'pro\u0000' } }, 'properties.plan'],
        [{ installId, eventName: 'ok', properties: { nested: { deep: ['a', '\uD800'] } } }, 'properties.nested.deep[1]'],
        [{ installId, eventName: 'ok', properties: { 'k\u0000ey': 1 } }, 'properties.key'],
      ];
      for (const [body, field] of cases) {
        const res = await post(body).expect(400);
        expect(res.body).toEqual({
          error: 'Bad Request',
          message: 'Validation error',
          statusCode: 400,
          validation: { [field]: 'Must not contain NUL characters or unpaired surrogates' },
        });
      }
      const batch = await request(ingest.url)
        .post('/api/sdk/v1/events')
        .set('Authorization', `Bearer ${app.token}`)
        .send({ events: [{ installId, eventName: 'fine' }, { installId, eventName: 'bad\u0000' }] })
        .expect(400);
      expect(batch.body.validation).toEqual({ 'events[1].eventName': 'Must not contain NUL characters or unpaired surrogates' });
    });

    it('an event the database refuses is dead-lettered alone; both tenants\' other events of the job are stored once', async () => {
      const appA = await sdkFx.app(orgA);
      const appB = await sdkFx.app(orgB);
      const now = new Date().toISOString();
      const record = (organizationId: string, appId: string, eventName: string, eventData: Record<string, unknown> = {}): SdkEventRecord => ({
        id: randomUUID(),
        organizationId,
        appId,
        installId: randomUUID(),
        eventName,
        eventData,
        eventTimestamp: now,
        revenue: null,
        currency: null,
        receivedAt: now,
      });
      const goodB = Array.from({ length: 12 }, (_, i) => record(orgB, appB.id, `b${i}`));
      const goodA = Array.from({ length: 4 }, (_, i) => record(orgA, appA.id, `a${i}`));
      const poison = [record(orgA, appA.id, 'x\u0000'), record(orgA, appA.id, 'ok', { v: 'p\u0000q' })];
      const events = [...goodA.slice(0, 2), poison[0], ...goodB, poison[1], ...goodA.slice(2)];
      const job = await ingestQueue.add('sdk.event', { events });
      await waitForValue(async () => (await job.isCompleted()) || (await job.isFailed()), Boolean);
      expect(await job.isCompleted()).toBe(true);

      expect(await env.prisma.inAppEvent.count({ where: { organizationId: orgB } })).toBe(12);
      const storedA = await env.prisma.inAppEvent.findMany({ where: { organizationId: orgA }, select: { id: true } });
      expect(new Set(storedA.map((e) => e.id))).toEqual(new Set(goodA.map((e) => e.id)));
      const letters = await deadLetters('ingest:sdk.event');
      expect(letters.map((l) => (l.payload as { id: string }).id).sort()).toEqual(poison.map((p) => p.id).sort());
    });
  });

  describe('webhook attempts', () => {
    it('a receiver answering NUL bytes is logged stripped; the other tenant\'s attempts are all logged', async () => {
      const evil = await startReceiver((_req, res) => res.end(Buffer.from('bad\u0000body \uD800', 'utf8')));
      const good = await startReceiver((_req, res) => res.end('ok'));
      receivers.push(evil, good);
      const hookA = await seedWebhook(env.prisma, orgA, evil.url);
      const hookB = await seedWebhook(env.prisma, orgB, good.url);
      const queue = eventQueue(env.config);
      try {
        await enqueueEvents(queue, [
          ...Array.from({ length: 5 }, () => clickEvent(orgA)),
          ...Array.from({ length: 8 }, () => clickEvent(orgB)),
        ]);
        const attempts = (webhookId: string) => env.prisma.webhookAttempt.findMany({ where: { delivery: { webhookId } } });
        await waitForValue(async () => (await attempts(hookA.id)).length + (await attempts(hookB.id)).length, (n) => n >= 13);
        await new Promise((r) => setTimeout(r, 300));
        const logA = await attempts(hookA.id);
        expect(logA).toHaveLength(5);
        expect(await attempts(hookB.id)).toHaveLength(8);
        for (const a of logA) expect(a.responseExcerpt).toBe('badbody \uFFFD');
      } finally {
        await queue.close();
      }
    });

    it('an attempt the database refuses is dead-lettered alone; the rest of its group commit is logged', async () => {
      const hookA = await seedWebhook(env.prisma, orgA, 'http://127.0.0.1:9/a');
      const hookB = await seedWebhook(env.prisma, orgB, 'http://127.0.0.1:9/b');
      const delivery = (organizationId: string, webhookId: string) =>
        env.prisma.webhookDelivery.create({ data: { organizationId, webhookId, eventId: randomUUID(), eventType: 'link.clicked', payload: {} } });
      const recorder = worker.app.get(AttemptRecorder);
      const result = { ok: true, gone: false, statusCode: 200, durationMs: 5, error: null, responseExcerpt: 'ok' };
      const records = [];
      for (let i = 0; i < 6; i++) {
        const d = await delivery(orgB, hookB.id);
        records.push({ organizationId: orgB, deliveryId: d.id, webhookId: hookB.id, attempt: 1, result, final: true });
      }
      const bad = await delivery(orgA, hookA.id);
      // An int overflow (22003): a data error no retry can fix.
      records.splice(3, 0, { organizationId: orgA, deliveryId: bad.id, webhookId: hookA.id, attempt: 1, result: { ...result, durationMs: 3_000_000_000 }, final: true });
      await Promise.all(records.map((r) => recorder.record(r)));
      expect(await env.prisma.webhookAttempt.count({ where: { delivery: { webhookId: hookB.id } } })).toBe(6);
      expect(await env.prisma.webhookAttempt.count({ where: { deliveryId: bad.id } })).toBe(0);
      const letters = await deadLetters('webhook-attempts');
      expect(letters).toHaveLength(1);
      expect(letters[0].error).toMatch(/^22003/);
      expect((letters[0].payload as { deliveryId: string }).deliveryId).toBe(bad.id);
    });
  });
});
