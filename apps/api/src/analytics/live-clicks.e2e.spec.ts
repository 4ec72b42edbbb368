import http from 'node:http';
import request from 'supertest';
import { ClickPipeline, MAX_LIVE_STREAMS } from '@dl/clicks';
import { createApiApp } from '@dl/apps/api';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, createTestEnv, KNOWN_IPS, rawClick, RunningApp, seedOrganization, startApp, TestEnv, USER_AGENTS } from '@dl/testing';

/** An open SSE response: its events as they arrive, and how to end it. */
interface Stream {
  status: number;
  contentType: string | undefined;
  events: Array<{ event: string; data: unknown }>;
  close(): void;
}

function openStream(url: string, key: string): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } }, (res) => {
      const stream: Stream = { status: res.statusCode ?? 0, contentType: res.headers['content-type'], events: [], close: () => req.destroy() };
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (event && data) stream.events.push({ event, data: JSON.parse(data) });
        }
      });
      // Resolves once the first bytes (": open") or the whole error body arrived.
      res.once('data', () => resolve(stream));
      res.on('error', () => undefined);
    });
    req.on('error', (err) => (err.message === 'socket hang up' ? undefined : reject(err)));
  });
}

const until = async (check: () => boolean, ms: number) => {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

describe('GET /api/analytics/live (decisions §24)', () => {
  let env: TestEnv;
  let api: RunningApp;
  let worker: RunningApp;
  let key: string;
  let keyB: string;
  let a1: { id: string; organizationId: string; shortCode: string };
  let a2: { id: string; organizationId: string };
  let b1: { id: string; organizationId: string };

  beforeAll(async () => {
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false' });
    const fx = new ClickFixtures(env.prisma);
    const a = await seedOrganization(env, { tier: Tier.PRO });
    const b = await seedOrganization(env, { tier: Tier.PRO });
    fx.useOwner(a.organization.id, a.owner.user.id, a.template.id).useOwner(b.organization.id, b.owner.user.id, b.template.id);
    key = a.owner.apiKey;
    keyB = b.owner.apiKey;
    const l1 = await fx.link(a.organization.id);
    a1 = { id: l1.id, organizationId: a.organization.id, shortCode: l1.shortCode };
    a2 = { id: (await fx.link(a.organization.id)).id, organizationId: a.organization.id };
    b1 = { id: (await fx.link(b.organization.id)).id, organizationId: b.organization.id };
    api = await startApp(createApiApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
  });

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await env?.teardown();
  });

  it("streams the organization's stored clicks within 2 s, without address or bots, never another organization's", async () => {
    const all = await openStream(`${api.url}/api/analytics/live`, key);
    const one = await openStream(`${api.url}/api/analytics/live?linkId=${a2.id}`, key);
    const other = await openStream(`${api.url}/api/analytics/live`, keyB);
    try {
      expect([all.status, all.contentType]).toEqual([200, 'text/event-stream']);
      // The worker learns within a second that the organization is watched.
      await new Promise((r) => setTimeout(r, 1100));
      const visit = rawClick(a1, { ip: KNOWN_IPS.kettering, userAgent: USER_AGENTS.iPhone, referrer: 'https://t.co/x' });
      await worker.app.get(ClickPipeline).store([visit, rawClick(a1, { userAgent: USER_AGENTS.googlebot }), rawClick(b1), rawClick(a2)]);
      // From the click's commit: the stream's own latency, not the enrichment's under a busy host.
      const started = Date.now();
      await until(() => all.events.length >= 2 && one.events.length >= 1 && other.events.length >= 1, 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(all.events.find((e) => (e.data as { id: string }).id === visit.id)).toEqual({
        event: 'click',
        data: {
          id: visit.id,
          linkId: a1.id,
          shortCode: a1.shortCode,
          clickedAt: visit.clickedAt,
          countryCode: 'GB',
          city: 'Kettering',
          device: 'mobile',
          os: 'iOS',
          browser: 'Mobile Safari',
          referrerHost: 't.co',
        },
      });
      await new Promise((r) => setTimeout(r, 200));
      expect(all.events.map((e) => (e.data as { linkId: string }).linkId).sort()).toEqual([a1.id, a2.id].sort());
      expect(one.events.map((e) => (e.data as { linkId: string }).linkId)).toEqual([a2.id]);
      expect(other.events.map((e) => (e.data as { linkId: string }).linkId)).toEqual([b1.id]);
    } finally {
      for (const s of [all, one, other]) s.close();
    }
  });

  it(`allows ${MAX_LIVE_STREAMS} streams per organization: the next is 429 until one closes`, async () => {
    await new Promise((r) => setTimeout(r, 300));
    const open: Stream[] = [];
    try {
      for (let i = 0; i < MAX_LIVE_STREAMS; i++) open.push(await openStream(`${api.url}/api/analytics/live`, key));
      expect(open.every((s) => s.status === 200)).toBe(true);
      await request(api.url)
        .get('/api/analytics/live')
        .set('Authorization', `Bearer ${key}`)
        .expect(429, { error: 'Too Many Requests', message: `At most ${MAX_LIVE_STREAMS} live streams per organization`, statusCode: 429 });
      // Another organization is not affected.
      const b = await openStream(`${api.url}/api/analytics/live`, keyB);
      expect(b.status).toBe(200);
      b.close();
      open.pop()!.close();
      let status = 0;
      for (let i = 0; i < 50 && status !== 200; i++) {
        const s = await openStream(`${api.url}/api/analytics/live`, key);
        status = s.status;
        if (status === 200) open.push(s);
        else await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe(200);
    } finally {
      for (const s of open) s.close();
    }
  });

  it('refuses a linkId that is not a UUID', async () => {
    await request(api.url)
      .get('/api/analytics/live?linkId=nope')
      .set('Authorization', `Bearer ${key}`)
      .expect(400, { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { linkId: 'Must be a valid UUID' } });
  });
});
