import { Queue } from 'bullmq';
import request from 'supertest';
import { Prisma } from '@dl/platform/db';
import { hashSecret } from '@dl/platform/http';
import { clicksQueue, closeAll, createTestEnv, eventuallyMatches, queuedClicks, randomCode, RunningApp, SeededOrg, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * The §16 controls behave on a branded host as on the service host (decisions §15, §16):
 * password form, unlock cookie and try limit, click caps and expiry fallbacks. Two
 * organizations own go.a.test and go.b.test, and the service host has links with the same
 * codes: nothing one host's visitor does (a cookie, wrong tries, used-up clicks) leaks to the
 * same code on another host.
 */
describe('redirect edge: link controls on branded hosts', () => {
  let env: TestEnv, edge: RunningApp, a: SeededOrg, b: SeededOrg, queue: Queue;
  const domains: Record<string, { id: string; domain: string }> = {};

  const on = (host: string) => ({
    get: (path: string, ua: string = UA.windowsChrome) =>
      request(edge.url).get(path).set('Host', host).set('User-Agent', ua).set('cf-connecting-ip', '198.51.100.20').redirects(0),
    post: (path: string, password: string, ip: string) =>
      request(edge.url).post(path).set('Host', host).set('User-Agent', UA.windowsChrome).set('cf-connecting-ip', ip).type('form').send({ password }).redirects(0),
  });
  const clicksOf = async (linkId: string) => (await queuedClicks(queue)).filter((c) => c.linkId === linkId);

  /** A link on a branded domain (or the service host when `host` is undefined). */
  const linkOn = (org: SeededOrg, host: string | undefined, data: Partial<Prisma.LinkUncheckedCreateInput>) =>
    seedLink(env.prisma, org, host ? { domainId: domains[host].id, domainName: host, ...data } : data);

  beforeAll(async () => {
    env = await createTestEnv({ TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip' });
    [a, b] = await Promise.all([seedRedirectOrg(env.prisma), seedRedirectOrg(env.prisma)]);
    for (const [org, domain] of [
      [a, 'go.a.test'],
      [b, 'go.b.test'],
    ] as const) {
      domains[domain] = await env.prisma.domain.create({
        data: {
          organizationId: org.organizationId,
          domain,
          status: 'verified',
          verifiedAt: new Date(),
          verificationToken: '0'.repeat(32),
          notFoundUrl: `https://${domain}.example/not-found`,
        },
        select: { id: true, domain: true },
      });
    }
    edge = await startApp(createRedirectApp, env.config); // loads the domain table at boot
    queue = clicksQueue(env.config);
  });

  afterAll(() => closeAll(queue, edge, env));

  describe('passwords', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      const code = 'spring';
      ids.a = (await linkOn(a, 'go.a.test', { shortCode: code, originalUrl: 'https://a.example/secret', passwordHash: await hashSecret('a-pass') })).id;
      ids.b = (await linkOn(b, 'go.b.test', { shortCode: code, originalUrl: 'https://b.example/secret', passwordHash: await hashSecret('b-pass') })).id;
      ids.host = (await linkOn(a, undefined, { shortCode: code, originalUrl: 'https://host.example/secret', passwordHash: await hashSecret('host-pass') })).id;
    });

    it('GET on a branded host shows the form (200, no click); the right password → 302, a click on that link, a cookie for that path', async () => {
      const form = await on('go.a.test').get('/spring').expect(200);
      expect(form.headers['content-type']).toMatch(/^text\/html/);
      expect(form.text).toContain('<form method="post">');
      const bot = await on('go.a.test').get('/spring', UA.facebook).expect(200);
      expect(bot.text).toContain('<form method="post">');

      expect((await on('go.a.test').post('/spring', 'b-pass', '198.51.100.30').expect(401)).text).toContain('Wrong password'); // b's password
      const right = await on('go.a.test').post('/spring', 'a-pass', '198.51.100.30').expect(302);
      expect(right.headers.location).toBe('https://a.example/secret');
      const cookie = (right.headers['set-cookie'] as unknown as string[])[0];
      const secure = env.config.SHORT_LINK_BASE_URL.startsWith('https:') ? '; Secure' : '';
      expect(cookie).toMatch(new RegExp(`^dl_pw_spring=\\d+\\.[A-Za-z0-9_-]+; Max-Age=86400; Path=/spring; HttpOnly; SameSite=Lax${secure}$`));
      const clicks = await eventuallyMatches(() => clicksOf(ids.a), (c) => c.length === 1);
      expect(clicks.map((c) => c.linkId)).toEqual([ids.a]);
      expect(await clicksOf(ids.b)).toHaveLength(0);

      // The cookie skips the form on its own host only: the same code on go.b.test and on the
      // service host still asks (a cookie replayed by hand is signed for another link).
      const pair = cookie.split(';')[0];
      expect((await on('go.a.test').get('/spring').set('Cookie', pair).expect(302)).headers.location).toBe('https://a.example/secret');
      expect((await on('go.b.test').get('/spring').set('Cookie', pair).expect(200)).text).toContain('<form method="post">');
      expect((await on('sho.rt').get('/spring').set('Cookie', pair).expect(200)).text).toContain('<form method="post">');
      // Each host's own password opens its own link.
      expect((await on('go.b.test').post('/spring', 'b-pass', '198.51.100.30').expect(302)).headers.location).toBe('https://b.example/secret');
      expect((await on('sho.rt').post('/spring', 'host-pass', '198.51.100.30').expect(302)).headers.location).toBe('https://host.example/secret');
    });

    it('more than 10 wrong tries a minute on go.a.test → 429 there; the same code on go.b.test and the service host is not limited', async () => {
      const ip = '198.51.100.31';
      for (let i = 0; i < 10; i++) await on('go.a.test').post('/spring', `wrong-${i}`, ip).expect(401);
      expect((await on('go.a.test').post('/spring', 'wrong-11', ip).expect(429)).text).toContain('Too many tries');
      await on('go.a.test').post('/spring', 'a-pass', ip).expect(429);
      await on('go.b.test').post('/spring', 'wrong', ip).expect(401);
      await on('go.b.test').post('/spring', 'b-pass', ip).expect(302);
      await on('sho.rt').post('/spring', 'host-pass', ip).expect(302);
    });

    it('a POST to an unknown code on a branded host answers like a GET would: its notFoundUrl', async () => {
      const res = await on('go.a.test').post('/nothing', 'a-pass', '198.51.100.32');
      expect([res.status, res.headers.location]).toEqual([302, 'https://go.a.test.example/not-found']);
    });
  });

  describe('click caps', () => {
    it('maxClicks counts per link: exact under 300 concurrent visits through 2 instances on go.a.test, then expiredUrl; go.b.test’s same code is untouched', async () => {
      const code = randomCode();
      const capped = await linkOn(a, 'go.a.test', { shortCode: code, originalUrl: 'https://a.example/capped', maxClicks: 40, expiredUrl: 'https://a.example/sold-out' });
      const twin = await linkOn(b, 'go.b.test', { shortCode: code, originalUrl: 'https://b.example/open', maxClicks: 40 });
      const other = await startApp(createRedirectApp, env.config);
      try {
        const urls = [edge.url, other.url];
        const answers = await Promise.all(
          Array.from({ length: 300 }, (_, i) =>
            request(urls[i % 2])
              .get(`/${code}`)
              .set('Host', 'go.a.test')
              .set('User-Agent', UA.windowsChrome)
              .set('cf-connecting-ip', `10.7.${i >> 8}.${i & 255}`)
              .redirects(0)
              .then((r) => `${r.status} ${r.headers.location}`),
          ),
        );
        const tally = answers.reduce<Record<string, number>>((t, x) => ({ ...t, [x]: (t[x] ?? 0) + 1 }), {});
        expect(tally).toEqual({ '302 https://a.example/capped': 40, '302 https://a.example/sold-out': 260 });
        expect(await eventuallyMatches(() => clicksOf(capped.id), (c) => c.length >= 40)).toHaveLength(40);
        // The other organization's link with the same code on its own domain still redirects.
        expect((await on('go.b.test').get(`/${code}`).expect(302)).headers.location).toBe('https://b.example/open');
        expect(await eventuallyMatches(() => clicksOf(twin.id), (c) => c.length === 1)).toHaveLength(1);
      } finally {
        await other.close();
      }
    }, 120_000);

    it('past the cap without expiredUrl → the 410 page on the branded host (not its notFoundUrl); bots are not counted', async () => {
      const link = await linkOn(a, 'go.a.test', { maxClicks: 1 });
      await on('go.a.test').get(`/${link.shortCode}`, UA.googlebot).expect(302);
      await on('go.a.test').get(`/${link.shortCode}`).expect(302);
      const gone = await on('go.a.test').get(`/${link.shortCode}`).expect(410);
      expect(gone.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(gone.headers.location).toBeUndefined();
    });
  });

  describe('expiry and inactive links', () => {
    it('expired by date: expiredUrl (302, no click), else the 410 page, even where the domain has a notFoundUrl', async () => {
      const past = new Date(Date.now() - 1000);
      const withUrl = await linkOn(a, 'go.a.test', { expiresAt: past, expiredUrl: 'https://a.example/over' });
      expect((await on('go.a.test').get(`/${withUrl.shortCode}`).expect(302)).headers.location).toBe('https://a.example/over');
      const plain = await linkOn(a, 'go.a.test', { expiresAt: past });
      await on('go.a.test').get(`/${plain.shortCode}`).expect(410);
      // Expiry comes before the password form (decisions §16 order).
      const locked = await linkOn(a, 'go.a.test', { expiresAt: past, passwordHash: await hashSecret('x-pass'), expiredUrl: 'https://a.example/over' });
      expect((await on('go.a.test').get(`/${locked.shortCode}`).expect(302)).headers.location).toBe('https://a.example/over');
      await new Promise((r) => setTimeout(r, 300));
      for (const l of [withUrl, plain, locked]) expect(await clicksOf(l.id)).toHaveLength(0);
    });

    it('an inactive link on a branded host → the domain’s notFoundUrl; the code is only looked up on its own host', async () => {
      const off = await linkOn(a, 'go.a.test', { isActive: false });
      expect((await on('go.a.test').get(`/${off.shortCode}`).expect(302)).headers.location).toBe('https://go.a.test.example/not-found');
      const live = await linkOn(a, 'go.a.test', { originalUrl: 'https://a.example/live' });
      expect((await on('go.a.test').get(`/${live.shortCode}`).expect(302)).headers.location).toBe('https://a.example/live');
      expect((await on('go.b.test').get(`/${live.shortCode}`).expect(302)).headers.location).toBe('https://go.b.test.example/not-found');
      await on('sho.rt').get(`/${live.shortCode}`).expect(404);
    });
  });
});
