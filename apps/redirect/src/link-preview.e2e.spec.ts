import request from 'supertest';
import { hashSecret } from '@dl/platform/http';
import { appEnv, closeAll, RunningApp, SeededOrg, seedLink, seedRedirectOrg, TestEnv } from '@dl/testing';
import { PAGE_CSP } from '@dl/redirect';
import { createRedirectApp } from './app';

/** `/<code>/preview` (FDL's previewLink, decisions §26): where a link leads, as a page, without a click. */
describe('redirect edge: the link preview page', () => {
  let env: TestEnv, server: RunningApp, org: SeededOrg;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createRedirectApp));
    org = await seedRedirectOrg(env.prisma);
  });
  afterAll(() => closeAll(server, env));

  it("shows each platform's destination and the social card as text, and the short link", async () => {
    const link = await seedLink(env.prisma, org, {
      originalUrl: 'https://example.com/welcome?a=1&b=<2>',
      iosUrl: 'https://apps.apple.com/app/id1234567890',
      androidUrl: 'https://play.google.com/store/apps/details?id=com.example',
      webFallbackUrl: 'https://example.com/desktop',
      ogTitle: 'Welcome "in"',
    });
    const res = await request(server.url).get(`/${link.shortCode}/preview`).redirects(0).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.headers.location).toBeUndefined();
    const shortUrl = `${env.config.SHORT_LINK_BASE_URL}/${link.shortCode}`;
    expect(res.text).toContain('<dt>Link</dt><dd>https://example.com/welcome?a=1&amp;b=&lt;2&gt;</dd>');
    expect(res.text).toContain('<dt>iOS</dt><dd>https://apps.apple.com/app/id1234567890</dd>');
    expect(res.text).toContain('<dt>Android</dt><dd>https://play.google.com/store/apps/details?id=com.example</dd>');
    expect(res.text).toContain('<dt>Other platforms</dt><dd>https://example.com/desktop</dd>');
    expect(res.text).toContain('<dt>Social title</dt><dd>Welcome &quot;in&quot;</dd>');
    expect(res.text).not.toContain('<dt>Social image</dt>');
    expect(res.text).toContain(`<a href="${shortUrl}" rel="nofollow">Open the link</a>`);
    await request(server.url).head(`/${link.shortCode}/preview`).expect(200);
  });

  it('tells nothing a visit would not: unknown → 404, password → the form, blocked → 403, expired → 410', async () => {
    const notFound = await request(server.url).get('/nope-nope/preview').expect(404);
    expect(notFound.text).not.toContain('Where this link goes');
    const locked = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/secret-place', passwordHash: await hashSecret('open sesame') });
    const form = await request(server.url).get(`/${locked.shortCode}/preview`).expect(200);
    expect(form.text).toContain('This link is password protected');
    expect(form.text).not.toContain('secret-place');
    const blocked = await seedLink(env.prisma, org, { safetyStatus: 'blocked', safetyReason: 'malware' });
    expect((await request(server.url).get(`/${blocked.shortCode}/preview`).expect(403)).text).toContain('This link has been disabled');
    const expired = await seedLink(env.prisma, org, { expiresAt: new Date(Date.now() - 60_000) });
    await request(server.url).get(`/${expired.shortCode}/preview`).expect(410);
  });
});
