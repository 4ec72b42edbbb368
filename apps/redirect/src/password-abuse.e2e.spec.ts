import request from 'supertest';
import { hashSecret } from '@dl/platform/http';
import { createTestEnv, RunningApp, SeededOrg, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * decisions §22, link passwords under attack: the reserve-then-check counters (10 checks a minute
 * per link and client IP, 100 per link) hold under 1,000 parallel tries, and the bounded hash
 * queue keeps another link's redirects answering meanwhile.
 */
describe('redirect edge: password brute force', () => {
  let env: TestEnv;
  let server: RunningApp;
  let org: SeededOrg;

  beforeAll(async () => {
    // A queue long enough that the counters, not the queue, decide in the counting tests.
    env = await createTestEnv({ TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip', LINK_PASSWORD_CHECK_QUEUE: '2000' });
    server = await startApp(createRedirectApp, env.config);
    org = await seedRedirectOrg(env.prisma);
  });
  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  const secret = async () => seedLink(env.prisma, org, { originalUrl: 'https://example.com/secret', passwordHash: await hashSecret('open sesame') });
  const postPassword = (code: string, password: string, ip: string, base = server.url) =>
    fetch(`${base}/${code}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': UA.windowsChrome, 'cf-connecting-ip': ip },
      body: `password=${encodeURIComponent(password)}`,
    });
  const tryPassword = (code: string, password: string, ip: string) => postPassword(code, password, ip).then((r) => r.status);
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

  it('1,000 parallel wrong tries from one IP: exactly 10 are checked, the rest get the 429 page', async () => {
    const link = await secret();
    const statuses = await Promise.all(Array.from({ length: 1000 }, (_, i) => tryPassword(link.shortCode, `wrong-${i}`, '203.0.113.7')));
    expect(tally(statuses)).toEqual({ 401: 10, 429: 990 });
    // The right password from that IP is refused too this minute; another IP still gets in.
    expect(await tryPassword(link.shortCode, 'open sesame', '203.0.113.7')).toBe(429);
    expect(await tryPassword(link.shortCode, 'open sesame', '203.0.113.8')).toBe(302);
  }, 60_000);

  it('a full check queue answers the 429 page at once, without hashing (LINK_PASSWORD_CHECK_QUEUE)', async () => {
    const small = await startApp(createRedirectApp, env.withOverrides({ TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip', LINK_PASSWORD_CHECK_CONCURRENCY: '1', LINK_PASSWORD_CHECK_QUEUE: '1' }));
    try {
      const link = await secret();
      // 50 IPs, one try each: under both counters, so every 429 is the queue's.
      const answers = await Promise.all(
        Array.from({ length: 50 }, async (_, i) => {
          const res = await postPassword(link.shortCode, `wrong-${i}`, `198.18.0.${i + 1}`, small.url);
          return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
        }),
      );
      const refused = answers.filter((a) => a.status === 429);
      expect(answers.filter((a) => a.status === 401).length + refused.length).toBe(50);
      expect(answers.filter((a) => a.status === 401).length).toBeGreaterThanOrEqual(2);
      expect(refused.length).toBeGreaterThan(0);
      expect(refused[0]).toMatchObject({ retryAfter: '60', text: expect.stringContaining('Too many tries') });
      // The queue drained: the next try is checked.
      expect(await postPassword(link.shortCode, 'open sesame', '198.18.1.1', small.url).then((r) => r.status)).toBe(302);
    } finally {
      await small.close();
    }
  }, 60_000);

  it('1,000 wrong tries from 1,000 IPs: exactly 100 are checked on that link, and another link keeps redirecting meanwhile', async () => {
    const target = await secret();
    const other = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/other' });
    const visitOther = async () => {
      const t = performance.now();
      const res = await request(server.url).get(`/${other.shortCode}`).set('User-Agent', UA.windowsChrome).redirects(0);
      expect(res.status).toBe(302);
      return performance.now() - t;
    };
    const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)];
    const before: number[] = [];
    for (let i = 0; i < 100; i++) before.push(await visitOther());
    let flooding = true;
    const flood = Promise.all(Array.from({ length: 1000 }, (_, i) => tryPassword(target.shortCode, `wrong-${i}`, `100.64.${i >> 8}.${i & 255}`))).finally(() => {
      flooding = false;
    });
    const during: number[] = [];
    while (flooding || during.length < 50) during.push(await visitOther());
    expect(tally(await flood)).toEqual({ 401: 100, 429: 900 });
    expect(await tryPassword(target.shortCode, 'open sesame', '198.19.0.1')).toBe(429);
    // The bounded queue runs one hash at a time: the flood costs at most 100 hashes, one core at most.
    // (The test client shares this process and the host is shared: the bound is generous.)
    expect(p99(during)).toBeLessThan(p99(before) + 50);
    process.stderr.write(`other link p99: before ${p99(before).toFixed(1)} ms, during the flood ${p99(during).toFixed(1)} ms (${during.length} visits)\n`);
  }, 120_000);
});
