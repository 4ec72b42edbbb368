import { Logger } from '@nestjs/common';
import request from 'supertest';
import { ClickPipeline } from '@dl/clicks';
import { createWorkerApp } from '@dl/apps/worker';
import { Tier } from '@dl/platform/db';
import { ClickFixtures, createReplicaEnv, KNOWN_IPS, rawClick, ReplicaEnv, RunningApp, startApp, USER_AGENTS } from '@dl/testing';
import { createApiApp } from './app';

/**
 * DATABASE_READ_URL on a real streaming replica (pg_basebackup of a private primary). Reads
 * are shown to come from the replica by pausing its replay: a click written to the primary
 * meanwhile is not in the analytics, report, click list or links list until replay resumes.
 * Reads that must see the caller's own write (GET a link just created, the ownership check
 * before its analytics) answer from the primary. With the replica stopped (by PID), every
 * read answers from the primary, with one throttled warning.
 */
describe('api: reads on the read replica', () => {
  let env: ReplicaEnv;
  let api: RunningApp;
  let worker: RunningApp;
  let key: string;
  let org: { id: string };
  let link: { id: string; shortCode: string };
  const month = new Date().toISOString().slice(0, 7);

  const get = (path: string) => request(api.url).get(path).set('Authorization', `Bearer ${key}`);
  const click = (n: number) =>
    worker.app.get(ClickPipeline).store(
      Array.from({ length: n }, (_, i) =>
        rawClick({ id: link.id, organizationId: org.id }, { ip: i % 2 ? KNOWN_IPS.kettering : KNOWN_IPS.poulsbo, userAgent: USER_AGENTS.iPhone }),
      ),
    );
  /** What every replica-routed read says right now. */
  const reads = async () => {
    const [summary, overview, clicks, report, links] = await Promise.all([
      get(`/api/analytics/links/${link.id}`).expect(200),
      get('/api/analytics/overview').expect(200),
      get(`/api/analytics/clicks/${link.id}`).expect(200),
      get(`/api/reports/monthly/${month}`).expect(200),
      get('/api/links').expect(200),
    ]);
    return {
      linkClicks: summary.body.totalClicks,
      overviewClicks: overview.body.totalClicks,
      clickList: clicks.body.length,
      reportClicks: report.body.kpis.clicks.value,
      links: links.body.length,
    };
  };
  const expected = (clicks: number, links: number) => ({ linkClicks: clicks, overviewClicks: clicks, clickList: clicks, reportClicks: clicks, links });

  beforeAll(async () => {
    env = await createReplicaEnv({ RATE_LIMIT_ENABLED: 'false' });
    const fx = new ClickFixtures(env.prisma);
    org = await fx.organization(Tier.PRO);
    key = (await fx.apiKey(org.id)).key;
    link = await fx.link(org.id);
    api = await startApp(createApiApp, env.config);
    worker = await startApp(createWorkerApp, env.config);
  }, 180_000);

  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await env?.teardown();
  }, 60_000);

  it('analytics, reports and lists read the replica; a GET after a create and ownership checks read the primary', async () => {
    await click(3);
    await env.replica.caughtUp();
    expect(await reads()).toEqual(expected(3, 1));

    await env.replica.pauseReplay();
    try {
      await click(2);
      // The replica has not replayed the two clicks: every analytics read still says 3.
      expect(await reads()).toEqual(expected(3, 1));

      // The caller's own write: the link just created is there on GET (primary) and its
      // analytics answer 200 with nothing yet (ownership checked on the primary), not 404.
      const template = await env.prisma.template.findFirstOrThrow({ where: { organizationId: org.id }, select: { id: true } });
      const created = await request(api.url)
        .post('/api/links')
        .set('Authorization', `Bearer ${key}`)
        .send({ templateId: template.id, originalUrl: 'https://example.com/new' })
        .expect(201);
      const fresh = await get(`/api/links/${created.body.id}`).expect(200);
      expect(fresh.body).toMatchObject({ id: created.body.id, originalUrl: 'https://example.com/new' });
      expect((await get(`/api/analytics/links/${created.body.id}`).expect(200)).body.totalClicks).toBe(0);
      expect((await get(`/api/analytics/clicks/${created.body.id}`).expect(200)).body).toEqual([]);
      // The list is a replica read: the new link shows once replay catches up.
      expect((await get('/api/links').expect(200)).body).toHaveLength(1);
    } finally {
      await env.replica.resumeReplay();
    }
    await env.replica.caughtUp();
    expect(await reads()).toEqual(expected(5, 2));
  }, 120_000);

  it('falls back to the primary while the replica is down (one throttled warning), and returns to it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await env.replica.stop();
      await click(1);
      // Straight from the primary: the newest click is there, no 5xx.
      for (let i = 0; i < 3; i++) expect(await reads()).toEqual(expected(6, 2));
      const warnings = warn.mock.calls.filter((c) => String(c[1] ?? c[0]).includes('read replica unavailable'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0][0]).toMatchObject({ fallbacks: 1, error: expect.any(String) });
    } finally {
      warn.mockRestore();
      await env.replica.start();
    }
    // Back on the replica once the retry pause (5 s) is over: a paused replay shows again.
    await new Promise((r) => setTimeout(r, 5_500));
    await env.replica.pauseReplay();
    try {
      await click(1);
      expect(await reads()).toEqual(expected(6, 2));
    } finally {
      await env.replica.resumeReplay();
    }
    await env.replica.caughtUp();
    expect(await reads()).toEqual(expected(7, 2));
  }, 120_000);

  it('leaves a replica that answers but no longer streams from the primary, and returns once it streams again', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await env.replica.disconnect();
      await click(1);
      // The next stream check (every 5 s) sees no WAL receiver: reads answer from the primary.
      await new Promise((r) => setTimeout(r, 6_000));
      expect(await reads()).toEqual(expected(8, 2));
      const notStreaming = warn.mock.calls.filter((c) => JSON.stringify(c[0] ?? '').includes('not streaming from the primary'));
      expect(notStreaming.length).toBeLessThanOrEqual(1); // throttled with the outage warning of the test before
    } finally {
      warn.mockRestore();
      await env.replica.reconnect();
    }
    await new Promise((r) => setTimeout(r, 6_000));
    await env.replica.pauseReplay();
    try {
      await click(1);
      expect(await reads()).toEqual(expected(8, 2));
    } finally {
      await env.replica.resumeReplay();
    }
  }, 120_000);
});
