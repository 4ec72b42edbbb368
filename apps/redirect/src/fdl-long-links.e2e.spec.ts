import { Queue } from 'bullmq';
import request from 'supertest';
import { Role } from '@dl/platform/db';
import { clicksQueue, closeAll, createTestEnv, eventuallyMatches, queuedClicks, RunningApp, SeededOrg, seedRedirectOrg, startApp, TestEnv, UA } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * Firebase Dynamic Links long links on a branded domain (decisions §26): `GET /?link=…&apn=…`
 * answers like a link with those destinations and records the click on the domain's `fdl` link,
 * made on the first such visit. The visit route (`GET /<code>`) is not involved.
 */
describe('redirect edge: Firebase Dynamic Links long links', () => {
  let env: TestEnv, edge: RunningApp, org: SeededOrg, queue: Queue;
  const HOST = 'go.fdl.test';
  const LONG = new URLSearchParams({
    link: 'https://example.com/fdl/welcome',
    apn: 'com.example.app',
    ibi: 'com.example.ios',
    isi: '1234567890',
    ofl: 'https://example.com/fdl/desktop',
    st: 'Welcome',
    sd: 'Open the app',
    si: 'https://example.com/fdl/card.png',
    utm_source: 'newsletter',
  });
  const get = (query: string, ua: string = UA.windowsChrome, host = HOST) =>
    request(edge.url).get(`/?${query}`).set('Host', host).set('User-Agent', ua).redirects(0);
  const fdlLink = () => env.prisma.link.findFirst({ where: { domainName: HOST, shortCode: 'fdl' } });

  beforeAll(async () => {
    env = await createTestEnv();
    org = await seedRedirectOrg(env.prisma);
    await env.prisma.membership.create({ data: { organizationId: org.organizationId, userId: org.userId, role: Role.OWNER } });
    await env.prisma.domain.create({
      data: { organizationId: org.organizationId, domain: HOST, status: 'verified', verifiedAt: new Date(), verificationToken: '0'.repeat(32), rootRedirectUrl: 'https://example.com/home' },
    });
    edge = await startApp(createRedirectApp, env.config);
    queue = clicksQueue(env.config);
  });
  afterAll(() => closeAll(queue, edge, env));

  it('each platform gets its destination: App Store page on iOS, Play Store page on Android, ofl elsewhere; the fdl link is made on the first visit', async () => {
    expect(await fdlLink()).toBeNull();
    const ios = await get(LONG.toString(), UA.iphone).expect(302);
    expect(ios.headers.location).toBe('https://apps.apple.com/app/id1234567890?utm_source=newsletter');
    const link = await fdlLink();
    expect(link).toMatchObject({ organizationId: org.organizationId, userId: org.userId, templateId: org.templateId, domainName: HOST, title: 'Firebase Dynamic Links' });
    expect((await get(LONG.toString(), UA.android).expect(302)).headers.location).toBe('https://play.google.com/store/apps/details?id=com.example.app&utm_source=newsletter');
    expect((await get(LONG.toString()).expect(302)).headers.location).toBe('https://example.com/fdl/desktop?utm_source=newsletter');
    expect(await env.prisma.link.count({ where: { domainName: HOST, shortCode: 'fdl' } })).toBe(1);
  });

  it('fallback links win over store pages; without ofl the deep link is the web destination', async () => {
    const q = new URLSearchParams({ link: 'https://example.com/fdl/deep', afl: 'https://example.com/fdl/android', ifl: 'https://example.com/fdl/ios', apn: 'com.example.app' });
    expect((await get(q.toString(), UA.android).expect(302)).headers.location).toBe('https://example.com/fdl/android');
    expect((await get(q.toString(), UA.iphone).expect(302)).headers.location).toBe('https://example.com/fdl/ios');
    expect((await get(q.toString()).expect(302)).headers.location).toBe('https://example.com/fdl/deep');
  });

  it('a crawler gets the social preview (st, sd, si)', async () => {
    const res = await get(LONG.toString(), UA.facebook).expect(200);
    expect(res.text).toContain('<meta property="og:title" content="Welcome"');
    expect(res.text).toContain('https://example.com/fdl/card.png');
  });

  it('the clicks are recorded on the fdl link, with the long link’s utm_* as the visit’s query', async () => {
    const link = (await fdlLink())!;
    const clicks = await eventuallyMatches(
      async () => (await queuedClicks(queue)).filter((c) => c.linkId === link.id),
      (cs) => cs.length >= 6,
    );
    expect(clicks.every((c) => c.organizationId === org.organizationId)).toBe(true);
    expect(clicks.some((c) => (c.query as Record<string, string> | undefined)?.utm_source === 'newsletter')).toBe(true);
  });

  // One refusal over HTTP; every link and fallback the edge refuses: libs/redirect/src/fdl-long-link.spec.ts.
  it('a link that is not http(s) → the 400 page', async () => {
    const res = await get(new URLSearchParams({ link: 'javascript:alert(1)', apn: 'com.example.app' }).toString());
    expect(res.status).toBe(400);
    expect(res.text).toContain('This link is not valid');
  });

  it('without `link` the root answers as before; on the service host or an unknown host no FDL', async () => {
    expect((await get('utm_source=x').expect(302)).headers.location).toBe('https://example.com/home');
    expect((await request(edge.url).get('/').set('Host', HOST).redirects(0)).headers.location).toBe('https://example.com/home');
    expect((await get(LONG.toString(), UA.windowsChrome, 'unknown.fdl.test')).status).toBe(404);
    expect((await get(LONG.toString(), UA.windowsChrome, new URL(env.config.SHORT_LINK_BASE_URL).host)).status).toBe(404);
  });
});
