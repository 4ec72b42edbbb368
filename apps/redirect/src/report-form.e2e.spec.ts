import request from 'supertest';
import { appEnv, closeAll, RunningApp, SeededOrg, seedLink, seedRedirectOrg, TestEnv, UA } from '@dl/testing';
import { PAGE_CSP } from '@dl/redirect';
import { createRedirectApp } from './app';

/** decisions §22: the `/<code>/report` form on the redirect host, from the warning page to a stored report. */
describe('redirect edge: the report form', () => {
  let env: TestEnv, server: RunningApp, org: SeededOrg;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createRedirectApp, { TRUSTED_CLIENT_IP_HEADER: 'cf-connecting-ip' }));
    org = await seedRedirectOrg(env.prisma);
  });
  afterAll(() => closeAll(server, env));

  const post = (code: string, form: Record<string, string>, ip = '192.0.2.20') =>
    request(server.url).post(`/${code}/report`).set('cf-connecting-ip', ip).type('form').send(form).redirects(0);
  const expectPageHeaders = (res: request.Response) => {
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cache-control']).toBe('no-store');
  };
  const reportsOf = (linkId: string) => env.prisma.abuseReport.findMany({ where: { linkId } });

  it("the warning page's Report button leads to the form, which posts to its own address", async () => {
    const link = await seedLink(env.prisma, org, { safetyStatus: 'suspicious', safetyReason: 'look-alike of paypal' });
    const warning = await request(server.url).get(`/${link.shortCode}`).set('User-Agent', UA.windowsChrome).redirects(0).expect(200);
    const href = /<a class="report" href="([^"]+)"/.exec(warning.text)?.[1];
    expect(href).toBe(`/${link.shortCode}/report`);
    const form = await request(server.url).get(href!).expect(200);
    expectPageHeaders(form);
    expect(form.text).toContain('<form method="post">');
    expect(form.text).toContain(`/${link.shortCode}</strong>`);
    for (const c of ['phishing', 'malware', 'spam', 'illegal', 'other']) expect(form.text).toContain(`<option value="${c}">`);
  });

  it('a posted form files the report (with the link and its organization) and answers 201 "Thank you"', async () => {
    const link = await seedLink(env.prisma, org);
    const res = await post(link.shortCode, { category: 'phishing', details: 'fake bank login', reporterEmail: 'v@example.test' }).expect(201);
    expectPageHeaders(res);
    expect(res.text).toContain('<h1>Thank you</h1>');
    expect(await reportsOf(link.id)).toEqual([
      expect.objectContaining({
        url: `${env.config.SHORT_LINK_BASE_URL}/${link.shortCode}`,
        organizationId: org.organizationId,
        category: 'phishing',
        details: 'fake bank login',
        reporterEmail: 'v@example.test',
        status: 'open',
      }),
    ]);
  });

  // One refusal over HTTP; every rule of the form: report-form.spec.ts.
  it('an unknown category answers 400 with the form again and its message, and files nothing', async () => {
    const link = await seedLink(env.prisma, org);
    const res = await post(link.shortCode, { category: 'weird' }).expect(400);
    expectPageHeaders(res);
    expect(res.text).toContain('<p class="error" role="alert">Choose what is wrong with this link.</p>');
    expect(await reportsOf(link.id)).toEqual([]);
  });

  it('a code that is no link of ours answers the 404 page', async () => {
    const res = await post('NoSuchCode9', { category: 'spam' }).expect(404);
    expectPageHeaders(res);
    expect(await env.prisma.abuseReport.count({ where: { url: { contains: 'NoSuchCode9' } } })).toBe(0);
  });

  it('shares the api\'s limit of 10 reports an hour per client IP (then the 429 page)', async () => {
    const link = await seedLink(env.prisma, org);
    for (let i = 0; i < 10; i++) await post(link.shortCode, { category: 'spam' }, '192.0.2.77').expect(201);
    const limited = await post(link.shortCode, { category: 'spam' }, '192.0.2.77').expect(429);
    expectPageHeaders(limited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await reportsOf(link.id)).toHaveLength(10);
    await post(link.shortCode, { category: 'spam' }, '192.0.2.78').expect(201);
  });
});
