import Redis from 'ioredis';
import { createWorkerApp } from '@dl/apps/worker';
import { RunningApp, SafeBrowsingTestServer, startApp, startSafeBrowsingServer, waitFor } from '@dl/testing';
import { bad, LinksWorld, linksWorld } from '../links/test/links-setup';

jest.setTimeout(120_000);

/**
 * decisions §22 Google Safe Browsing v4: with SAFE_BROWSING_API_KEY, destinations are looked up
 * with `threatMatches:find` on a loopback server speaking the documented API; a match refuses the
 * link, verdicts are cached, and an unreachable Safe Browsing accepts the link for a later re-check
 * by the worker.
 */
describe('Safe Browsing screening', () => {
  let sb: SafeBrowsingTestServer;
  let w: LinksWorld;
  let worker: RunningApp | undefined;

  beforeAll(async () => {
    sb = await startSafeBrowsingServer('sb-test-key');
    w = await linksWorld({ env: { SAFE_BROWSING_API_KEY: 'sb-test-key', SAFE_BROWSING_API_BASE: sb.url, SAFE_BROWSING_TIMEOUT_MS: '1000', SAFE_BROWSING_RECHECK_MS: '300' } });
  });
  afterAll(async () => {
    await worker?.close();
    await w?.close();
    await sb?.close();
  });

  const create = (body: Record<string, unknown>) => w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/', ...body });

  it.each([
    ['SOCIAL_ENGINEERING', 'https://phish.sb.test/login', 'phishing'],
    ['MALWARE', 'https://malware.sb.test/x.exe', 'malware'],
    ['UNWANTED_SOFTWARE', 'https://pup.sb.test/setup', 'unwanted software'],
  ] as const)('a URL listed as %s → 400 Destination blocked: %s', async (type, url, reason) => {
    sb.listed.set(url, type);
    expect((await create({ originalUrl: url }).expect(400)).body).toEqual(bad('Validation error', { originalUrl: `Destination blocked: ${reason}` }));
  });

  it('sends the documented request body with the key, and caches verdicts (no second lookup)', async () => {
    sb.listed.set('https://cached.sb.test/', 'SOCIAL_ENGINEERING');
    const before = sb.requests.length;
    await create({ originalUrl: 'https://cached.sb.test/', iosUrl: 'https://fine.sb.test/' }).expect(400);
    expect(sb.requests.length).toBe(before + 1);
    expect(sb.requests[before]).toEqual({
      client: { clientId: expect.any(String), clientVersion: expect.any(String) },
      threatInfo: {
        threatTypes: ['MALWARE', 'SOCIAL_ENGINEERING', 'UNWANTED_SOFTWARE'],
        platformTypes: ['ANY_PLATFORM'],
        threatEntryTypes: ['URL'],
        threatEntries: [{ url: 'https://cached.sb.test/' }, { url: 'https://fine.sb.test/' }],
      },
    });
    await create({ originalUrl: 'https://cached.sb.test/' }).expect(400);
    const ok = await create({ originalUrl: 'https://fine.sb.test/' }).expect(201);
    expect(ok.body.safety).toEqual({ status: 'ok', reason: null, checkedAt: expect.any(String) });
    expect(sb.requests.length).toBe(before + 1);
    // Cached for 30 minutes, listed or not.
    const redis = new Redis(w.env.config.REDIS_URL);
    try {
      const keys = await redis.keys(`${w.env.config.REDIS_PREFIX}:safety:sb:*`);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      for (const key of keys) expect(await redis.ttl(key)).toBeGreaterThan(1790);
      for (const key of keys) expect(await redis.ttl(key)).toBeLessThanOrEqual(1800);
    } finally {
      redis.disconnect();
    }
  });

  it('a variant is looked up too', async () => {
    sb.listed.set('https://variant.sb.test/', 'MALWARE');
    const res = await create({ variants: [{ url: 'https://a.sb.test/', weight: 50 }, { url: 'https://variant.sb.test/', weight: 50 }] }).expect(400);
    expect(res.body).toEqual(bad('Validation error', { 'variants[1].url': 'Destination blocked: malware' }));
  });

  it('unreachable or hanging: 201 within 2 s (status ok, not checked yet), then re-checked and blocked by the worker', async () => {
    sb.mode = 'down';
    const res = await create({ originalUrl: 'https://later.sb.test/landing' }).expect(201);
    expect(res.body.safety).toEqual({ status: 'ok', reason: null, checkedAt: null });
    const clean = await create({ originalUrl: 'https://later-clean.sb.test/' }).expect(201);
    // A hanging Safe Browsing costs at most its timeout: accepted within 2 s.
    sb.mode = 'hang';
    const started = Date.now();
    const hung = await create({ originalUrl: 'https://hang.sb.test/' }).expect(201);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hung.body.safety).toEqual({ status: 'ok', reason: null, checkedAt: null });

    sb.mode = 'up';
    sb.listed.set('https://later.sb.test/landing', 'SOCIAL_ENGINEERING');
    sb.listed.set('https://hang.sb.test/', 'MALWARE');
    worker = await startApp(createWorkerApp, w.env.config);
    const blocked = await waitFor(async () => {
      const read = await w.http().get(`/api/links/${res.body.id}`).expect(200);
      return read.body.safety.status === 'blocked' && read.body.safety;
    }, 30_000);
    expect(blocked).toEqual({ status: 'blocked', reason: 'phishing', checkedAt: expect.any(String) });
    const hungBlocked = await waitFor(async () => {
      const read = await w.http().get(`/api/links/${hung.body.id}`).expect(200);
      return read.body.safety.status === 'blocked' && read.body.safety;
    }, 30_000);
    expect(hungBlocked).toEqual({ status: 'blocked', reason: 'malware', checkedAt: expect.any(String) });
    const checked = await waitFor(async () => (await w.http().get(`/api/links/${clean.body.id}`).expect(200)).body.safety.checkedAt, 30_000);
    expect(typeof checked).toBe('string');
    expect((await w.http().get(`/api/links/${clean.body.id}`).expect(200)).body.safety.status).toBe('ok');
  });
});
