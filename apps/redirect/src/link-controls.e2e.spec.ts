import { Queue } from 'bullmq';
import request from 'supertest';
import { hashSecret } from '@dl/platform/http';
import { createRedisClient } from '@dl/platform/redis';
import { appEnv, clicksQueue, closeAll, eventuallyMatches, publishInvalidation, queuedClicks, RunningApp, SeededOrg, seedLink, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * decisions §16 at the edge over HTTP: a rule and a variant recorded on their clicks, expiry
 * fallbacks, passwords, cloaking, click caps. Every rule of the decision (each condition, first
 * match, the targeting gate, the variant split): libs/redirect/src/link-controls.spec.ts.
 */
describe('redirect edge: link controls', () => {
  let env: TestEnv, server: RunningApp, org: SeededOrg, queue: Queue;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createRedirectApp, { TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip' }));
    org = await seedRedirectOrg(env.prisma);
    queue = clicksQueue(env.config);
  });

  afterAll(() => closeAll(queue, server, env));

  const get = (path: string, ua: string = UA.windowsChrome) => request(server.url).get(path).set('User-Agent', ua).redirects(0);
  const clicksOf = async (linkId: string) => (await queuedClicks(queue)).filter((c) => c.linkId === linkId);

  describe('redirect rules (first match wins, before targeting, variants and platform routing)', () => {
    const rules = [
      { conditions: { countries: ['GB'] }, url: 'https://r.example/gb' },
      { conditions: { languages: ['fr'] }, url: 'https://r.example/fr' },
      { conditions: { devices: ['android'] }, url: 'https://r.example/android' },
      { conditions: { os: ['macOS'] }, url: 'https://r.example/mac' },
      { conditions: { browsers: ['Firefox', 'Samsung Internet'] }, url: 'https://r.example/firefox-samsung' },
      { conditions: { query: { ref: 'news' } }, url: 'https://r.example/news' },
      { conditions: { after: '2020-01-01T00:00:00Z', before: '2020-02-01T00:00:00Z' }, url: 'https://r.example/past' },
      { conditions: { after: '2020-01-01T00:00:00Z', browsers: ['Edge'] }, url: 'https://r.example/edge-since-2020' },
    ];
    let link: { id: string; shortCode: string };
    beforeAll(async () => {
      link = await seedLink(env.prisma, org, {
        originalUrl: 'https://example.com/o',
        iosUrl: 'https://apps.apple.com/app/id1',
        redirectRules: rules,
        targetingRules: { devices: ['ios'] },
      });
    });

    // One rule over HTTP, recorded on its click; every condition (languages, devices, OS, browsers,
    // query, time): libs/redirect/src/link-controls.spec.ts.
    it('country by the trusted client-IP header (GeoLite2: 81.2.69.160 is GB), its index recorded on the click', async () => {
      const res = await get(`/${link.shortCode}`).set('cf-connecting-ip', '81.2.69.160').expect(302);
      expect(res.headers.location).toBe('https://r.example/gb');
      const clicks = await eventuallyMatches(() => clicksOf(link.id), (c) => c.some((x) => x.ruleIndex === 0));
      expect(clicks.some((x) => x.ruleIndex === 0)).toBe(true);
    });
  });

  describe('A/B variants', () => {
    const variants = [
      { url: 'https://ab.example/a', weight: 30 },
      { url: 'https://ab.example/b', weight: 70 },
    ];

    it('a visitor keeps the same variant over 20 visits; its index is recorded on each click', async () => {
      const link = await seedLink(env.prisma, org, { variants });
      const seen = new Set<string>();
      for (let i = 0; i < 20; i++) {
        const res = await get(`/${link.shortCode}`).set('cf-connecting-ip', '203.0.113.7').expect(302);
        seen.add(res.headers.location);
      }
      expect(seen.size).toBe(1);
      const index = variants.findIndex((v) => v.url === [...seen][0]);
      const clicks = await eventuallyMatches(() => clicksOf(link.id), (c) => c.length >= 20);
      expect(clicks).toHaveLength(20);
      expect(clicks.every((c) => c.variantIndex === index)).toBe(true);
    });
  });

  describe('expiry fallbacks', () => {
    it('expired by date: expiredUrl (302, no click) instead of the 410 page', async () => {
      const link = await seedLink(env.prisma, org, { expiresAt: new Date(Date.now() - 1000), expiredUrl: 'https://example.com/over' });
      const res = await get(`/${link.shortCode}`).expect(302);
      expect(res.headers.location).toBe('https://example.com/over');
      const plain = await seedLink(env.prisma, org, { expiresAt: new Date(Date.now() - 1000) });
      await get(`/${plain.shortCode}`).expect(410);
      await new Promise((r) => setTimeout(r, 300));
      expect(await clicksOf(link.id)).toHaveLength(0);
    });
  });

  describe('passwords', () => {
    let link: { id: string; shortCode: string };
    beforeAll(async () => {
      link = await seedLink(env.prisma, org, {
        originalUrl: 'https://example.com/secret',
        passwordHash: await hashSecret('open sesame'),
        ogTitle: 'Secret <b>stuff</b>',
      });
    });
    const post = (password: string, ip = '198.51.100.1') =>
      request(server.url)
        .post(`/${link.shortCode}`)
        .set('User-Agent', UA.windowsChrome)
        .set('cf-connecting-ip', ip)
        .type('form')
        .send({ password })
        .redirects(0);

    it('visitors and crawlers get the form (200, no Open Graph tags), and no click is recorded', async () => {
      const res = await get(`/${link.shortCode}`).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<form method="post">');
      expect(res.text).toContain('name="password"');
      const bot = await get(`/${link.shortCode}`, UA.facebook).expect(200);
      expect(bot.text).toContain('<form method="post">');
      expect(bot.text).not.toMatch(/og:|Secret/);
      await new Promise((r) => setTimeout(r, 300));
      expect(await clicksOf(link.id)).toHaveLength(0);
    });

    it('a wrong password → 401 form with "Wrong password"; the right one → 302, a click and a 24 h cookie that skips the form', async () => {
      const wrong = await post('nope', '198.51.100.2').expect(401);
      expect(wrong.text).toContain('Wrong password');
      expect(await clicksOf(link.id)).toHaveLength(0);
      const right = await post('open sesame', '198.51.100.2').expect(302);
      expect(right.headers.location).toBe('https://example.com/secret');
      const cookie = right.headers['set-cookie'][0] as string;
      expect(cookie).toMatch(new RegExp(`^dl_pw_${link.shortCode}=\\d+\\.[A-Za-z0-9_-]+; Max-Age=86400; Path=/${link.shortCode}; HttpOnly; SameSite=Lax`));
      await eventuallyMatches(() => clicksOf(link.id), (c) => c.length === 1);
      const again = await get(`/${link.shortCode}`).set('Cookie', cookie.split(';')[0]).expect(302);
      expect(again.headers.location).toBe('https://example.com/secret');
      const forged = cookie.split(';')[0].replace(/\.[A-Za-z0-9_-]+$/, '.AAAA');
      await get(`/${link.shortCode}`).set('Cookie', forged).expect(200);
      expect((await eventuallyMatches(() => clicksOf(link.id), (c) => c.length === 2)).length).toBe(2);
    });

    it('more than 10 wrong tries a minute per link and client IP → 429 page (another IP is not affected)', async () => {
      for (let i = 0; i < 10; i++) await post(`wrong-${i}`, '198.51.100.3').expect(401);
      const limited = await post('wrong-11', '198.51.100.3').expect(429);
      expect(limited.text).toContain('Too many tries');
      await post('open sesame', '198.51.100.3').expect(429);
      await post('open sesame', '198.51.100.4').expect(302);
    });
  });

  describe('cloaking', () => {
    it('a web destination in a full-page frame (200, escaped title, plain link); app-store destinations are never cloaked', async () => {
      const link = await seedLink(env.prisma, org, {
        originalUrl: 'https://example.com/page?a=1&b=2',
        iosUrl: 'https://apps.apple.com/app/id3',
        title: 'Hello "<script>alert(1)</script>"',
        cloak: true,
      });
      const res = await get(`/${link.shortCode}`).expect(200);
      expect(res.text).toContain('<iframe src="https://example.com/page?a=1&amp;b=2"');
      expect(res.text).toContain('<title>Hello &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;</title>');
      expect(res.text).toContain('href="https://example.com/page?a=1&amp;b=2"');
      expect(res.text).not.toContain('<script>');
      expect((await get(`/${link.shortCode}`, UA.iphone).expect(302)).headers.location).toBe('https://apps.apple.com/app/id3');
      expect(await eventuallyMatches(() => clicksOf(link.id), (c) => c.length === 2)).toHaveLength(2);
    });
  });

  describe('click caps', () => {
    it('1,000 concurrent visits through 4 redirect instances to maxClicks: 100 → exactly 100 to the destination, 900 to expiredUrl', async () => {
      const others = await Promise.all([1, 2, 3].map(() => startApp(createRedirectApp, env.config)));
      try {
        const link = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/capped', maxClicks: 100, expiredUrl: 'https://example.com/sold-out' });
        const urls = [server.url, ...others.map((o) => o.url)];
        const answers = await Promise.all(
          Array.from({ length: 1000 }, (_, i) =>
            fetch(`${urls[i % 4]}/${link.shortCode}`, { redirect: 'manual', headers: { 'user-agent': UA.windowsChrome, 'cf-connecting-ip': `10.9.${i >> 8}.${i & 255}` } }).then(
              (r) => `${r.status} ${r.headers.get('location')}`,
            ),
          ),
        );
        const tally = answers.reduce<Record<string, number>>((t, a) => ({ ...t, [a]: (t[a] ?? 0) + 1 }), {});
        expect(tally).toEqual({ '302 https://example.com/capped': 100, '302 https://example.com/sold-out': 900 });
        const clicks = await eventuallyMatches(() => clicksOf(link.id), (c) => c.length >= 100);
        expect(clicks).toHaveLength(100);
      } finally {
        await Promise.all(others.map((o) => o.close()));
      }
    }, 180_000);

    it('bots are not counted; past the cap without expiredUrl → 410; a lost counter is rebuilt from Postgres', async () => {
      const link = await seedLink(env.prisma, org, { maxClicks: 2 });
      await get(`/${link.shortCode}`, UA.googlebot).expect(302);
      await get(`/${link.shortCode}`).expect(302);
      await get(`/${link.shortCode}`).expect(302);
      await get(`/${link.shortCode}`).expect(410);
      await get(`/${link.shortCode}`, UA.googlebot).expect(410);

      // Redis lost the counter: it is rebuilt from the non-bot clicks stored in Postgres.
      const rebuilt = await seedLink(env.prisma, org, { maxClicks: 3 });
      const redis = createRedisClient(env.config, { enableOfflineQueue: true });
      try {
        await env.prisma.$executeRawUnsafe(
          `INSERT INTO clicks (id, organization_id, link_id, clicked_at, is_bot, visitor_hash)
           SELECT gen_random_uuid(), $1::uuid, $2::uuid, now(), b, 'v' FROM unnest(ARRAY[false, false, true]) AS b`,
          org.organizationId,
          rebuilt.id,
        );
        await get(`/${rebuilt.shortCode}`).expect(302);
        await get(`/${rebuilt.shortCode}`).expect(410);
        expect(await redis.get(`${env.config.REDIS_PREFIX}:links:clicks-used:${rebuilt.id}`)).toBe('3');
        // A raised cap reaches the edge with the link change.
        await env.prisma.link.update({ where: { id: rebuilt.id }, data: { maxClicks: 4 } });
        await publishInvalidation(env.config, rebuilt.shortCode);
        await eventuallyMatches(async () => (await get(`/${rebuilt.shortCode}`)).status, (s) => s === 302);
      } finally {
        redis.disconnect();
      }
    });
  });
});
