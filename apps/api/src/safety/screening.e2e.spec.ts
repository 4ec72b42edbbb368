import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createRedirectApp } from '@dl/apps/redirect';
import { clicksQueue, queuedClicks, RunningApp, startApp, withoutClickId } from '@dl/testing';
import { bad, LinksWorld, linksWorld, waitFor } from '../links/test/links-setup';

/**
 * decisions §22, destination screening end to end: a threat feed file in every format, the
 * built-in rules, each place that stores a destination (create, bulk, update, template
 * defaults, import, domain settings), `safety` on reads, and the edge's warning and disabled pages.
 */
describe('destination screening', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feeds-'));
  const urlhaus = join(dir, 'urlhaus.csv');
  const lists = join(dir, 'lists.txt');
  let w: LinksWorld;
  let edge: RunningApp;
  let clicks: ReturnType<typeof clicksQueue>;

  beforeAll(async () => {
    writeFileSync(
      urlhaus,
      '# URLhaus database dump\n# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter\n' +
        '"3285746","2026-11-02 10:01:02","http://malware.test/payload.exe","online","2026-11-02","malware_download","exe","https://urlhaus.abuse.ch/url/3285746/","anon"\n' +
        '"broken line\n',
    );
    writeFileSync(lists, 'https://phish.test/login\nbad-domain.test\n0.0.0.0 tracker.test\n127.0.0.1 localhost\n::: nonsense :::\n');
    w = await linksWorld({ env: { THREAT_FEEDS: `${urlhaus},${lists}`, THREAT_FEEDS_POLL_MS: '200', PROTECTED_BRANDS: 'paypal.com' } });
    edge = await startApp(createRedirectApp, w.env.config);
    clicks = clicksQueue(w.env.config);
  });
  afterAll(async () => {
    await clicks?.close();
    await edge?.close();
    await w?.close();
  });

  const template = () => w.a.template.id;
  const create = (body: Record<string, unknown>) => w.http().post('/api/links', { templateId: template(), originalUrl: 'https://example.com/', ...body });
  const blocked = (field: string, reason: string) => bad('Validation error', { [field]: `Destination blocked: ${reason}` });

  it.each([
    ['a URLhaus entry, spelled with case, a trailing dot, the default port and escapes', { originalUrl: 'HTTP://Malware.TEST.:80/%70ayload.exe' }, 'originalUrl', 'malware'],
    ['a URL-list entry', { originalUrl: 'https://phish.test:443/login' }, 'originalUrl', 'blocklisted URL'],
    ['a subdomain of a domain-list entry', { androidUrl: 'https://cdn.Bad-Domain.test./x' }, 'androidUrl', 'blocklisted domain'],
    ['a hosts-file entry', { webFallbackUrl: 'http://tracker.test/' }, 'webFallbackUrl', 'blocklisted domain'],
    ['credentials in the URL', { iosUrl: 'https://bank.example@evil.example/' }, 'iosUrl', 'credentials in URL'],
    ['a variant', { variants: [{ url: 'https://ok.example/', weight: 50 }, { url: 'https://phish.test/login', weight: 50 }] }, 'variants[1].url', 'blocklisted URL'],
    ['a rule', { redirectRules: [{ conditions: { countries: ['GB'] }, url: 'http://malware.test/payload.exe' }] }, 'redirectRules[0].url', 'malware'],
    ['the expired URL', { expiredUrl: 'https://x.bad-domain.test/' }, 'expiredUrl', 'blocklisted domain'],
  ])('create refuses %s', async (_name, body, field, reason) => {
    const res = await create(body).expect(400);
    expect(res.body).toEqual(blocked(field, reason));
  });

  it('an IDN spelling of a listed domain is refused too', async () => {
    writeFileSync(join(dir, 'idn.txt'), 'xn--bcher-kva.test\n');
    // Not one of the configured feeds: only the configured files count.
    await create({ originalUrl: 'https://bücher.test/' }).expect(201);
    appendFileSync(lists, 'bücher.example\n');
    await waitFor(async () => (await create({ originalUrl: 'https://BÜCHER.example/' })).status === 400, 5000);
    expect((await create({ originalUrl: 'https://xn--bcher-kva.example/' }).expect(400)).body).toEqual(blocked('originalUrl', 'blocklisted domain'));
  });

  it('a look-alike is accepted as suspicious, shown on create and reads', async () => {
    const res = await create({ originalUrl: 'https://paypa1.com/signin' }).expect(201);
    expect(res.body.safety).toEqual({ status: 'suspicious', reason: 'look-alike of paypal.com', checkedAt: expect.any(String) });
    const read = await w.http().get(`/api/links/${res.body.id}`).expect(200);
    expect(read.body.safety).toEqual(res.body.safety);
    const mixed = await create({ originalUrl: 'https://pаypal.example/' }).expect(201);
    expect(mixed.body.safety).toMatchObject({ status: 'suspicious', reason: 'mixed scripts' });
    const fine = await create({ originalUrl: 'https://www.paypal.com/' }).expect(201);
    expect(fine.body.safety).toEqual({ status: 'ok', reason: null, checkedAt: expect.any(String) });
  });

  it('bulk create is all-or-nothing and names the item', async () => {
    const before = (await w.http().get('/api/links').expect(200)).body.length;
    const res = await w
      .http()
      .post('/api/links/bulk-create', { links: [{ templateId: template(), originalUrl: 'https://ok.example/' }, { templateId: template(), originalUrl: 'http://malware.test/payload.exe' }] })
      .expect(400);
    expect(res.body).toEqual(bad('Validation error: links[1].originalUrl: Destination blocked: malware', { 'links[1].originalUrl': 'Destination blocked: malware' }));
    expect((await w.http().get('/api/links').expect(200)).body.length).toBe(before);
  });

  it('update and bulk update screen the link with its other destinations', async () => {
    const link = (await create({ originalUrl: 'https://example.com/u' }).expect(201)).body;
    expect((await w.http().put(`/api/links/${link.id}`, { originalUrl: 'https://phish.test/login' }).expect(400)).body).toEqual(blocked('originalUrl', 'blocklisted URL'));
    const suspicious = await w.http().put(`/api/links/${link.id}`, { iosUrl: 'https://paypa1.com/' }).expect(200);
    expect(suspicious.body.safety).toMatchObject({ status: 'suspicious', reason: 'look-alike of paypal.com' });
    // A change to another destination keeps the look-alike's status (the whole link is screened).
    expect((await w.http().put(`/api/links/${link.id}`, { originalUrl: 'https://example.com/u2' }).expect(200)).body.safety.status).toBe('suspicious');
    const cleared = await w.http().put(`/api/links/${link.id}`, { iosUrl: null }).expect(200);
    expect(cleared.body.safety).toMatchObject({ status: 'ok', reason: null });
    // A title change does not screen (checkedAt stays).
    expect((await w.http().put(`/api/links/${link.id}`, { title: 't' }).expect(200)).body.safety).toEqual(cleared.body.safety);
    const bulk = await w.http().post('/api/links/bulk-update', { updates: [{ id: link.id, data: { webFallbackUrl: 'http://tracker.test/' } }] }).expect(400);
    expect(bulk.body).toEqual(
      bad('Validation error: updates[0].data.webFallbackUrl: Destination blocked: blocklisted domain', { 'updates[0].data.webFallbackUrl': 'Destination blocked: blocklisted domain' }),
    );
  });

  it('template defaults are screened when saved and when a link uses them', async () => {
    const refused = await w.http().post('/api/templates', { name: 'Bad', defaults: { originalUrl: 'https://phish.test/login' } }).expect(400);
    expect(refused.body).toEqual(blocked('defaults.originalUrl', 'blocklisted URL'));
    const t = (await w.http().post('/api/templates', { name: 'Later bad', defaults: { originalUrl: 'https://later.test/' } }).expect(201)).body;
    appendFileSync(lists, 'later.test\n');
    await waitFor(async () => (await w.http().post('/api/links', { templateId: t.id })).status === 400, 5000);
    expect((await w.http().post('/api/links', { templateId: t.id }).expect(400)).body).toEqual(blocked('originalUrl', 'blocklisted domain'));
  });

  it('import fails the blocked rows and keeps the others', async () => {
    const csv = 'url,title\nhttps://ok.example/1,ok\nhttp://malware.test/payload.exe,bad\n';
    const res = await request(w.api.url)
      .post('/migrations/import')
      .set('Authorization', `Bearer ${w.keyA}`)
      .field('platform', 'dub')
      .field('templateId', template())
      .attach('file', Buffer.from(csv), { filename: 'links.csv', contentType: 'text/csv' })
      .expect(200);
    expect(res.body).toMatchObject({ imported: 1, failed: 1, errors: [{ row: 2, message: 'originalUrl: Destination blocked: malware' }] });
  });

  it('domain settings are screened', async () => {
    const d = (await w.http().post('/api/domains', { domain: 'go.screening.example' }).expect(201)).body;
    const res = await request(w.api.url).patch(`/api/domains/${d.id}`).set('Authorization', `Bearer ${w.keyA}`).send({ notFoundUrl: 'https://phish.test/login' }).expect(400);
    expect(res.body).toEqual(blocked('notFoundUrl', 'blocklisted URL'));
  });

  it('refusals at creation never count toward automatic suspension', async () => {
    for (let i = 0; i < 4; i++) await create({ originalUrl: 'http://malware.test/payload.exe' }).expect(400);
    expect((await w.env.prisma.organization.findUniqueOrThrow({ where: { id: w.a.organization.id } })).suspendedAt).toBeNull();
    await w.http().get('/api/links').expect(200);
  });

  describe('the edge answers from the snapshot', () => {
    const visit = (path: string) => request(edge.url).get(path).set('User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0').redirects(0);

    it('suspicious: a warning page with the destination in plain text, Continue and Report; continuing is a normal visit', async () => {
      const link = (await create({ originalUrl: 'https://paypa1.com/signin?x=<b>', customCode: 'WarnMe1' }).expect(201)).body;
      const page = await visit('/WarnMe1?ref=mail').expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      // Security headers on every HTML page of the edge (decisions §22).
      for (const res of [page, await visit('/NoSuchCode99').expect(404)]) {
        expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'");
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      }
      expect(page.text).not.toMatch(/<script/i);
      expect(page.text).toContain('This link may be unsafe');
      expect(page.text).toContain('https://paypa1.com/signin?x=%3Cb%3E');
      expect(page.text).not.toContain('href="https://paypa1.com');
      expect(page.text).toContain('href="?ref=mail&amp;dl_continue=1"');
      expect(page.text).toContain('href="/WarnMe1/report"');
      const clicksOf = async () => (await queuedClicks(clicks)).filter((c) => c.linkId === link.id);
      await new Promise((r) => setTimeout(r, 300));
      expect(await clicksOf()).toHaveLength(0);
      const go = await visit('/WarnMe1?ref=mail&dl_continue=1').expect(302);
      expect(withoutClickId(go.headers.location)).toBe('https://paypa1.com/signin?x=%3Cb%3E&ref=mail'); // a paid plan: dl_click too (§23)
      expect(link.safety.status).toBe('suspicious');
      // Continuing is a normal visit: one click, and the warning page's visit recorded none.
      await waitFor(async () => (await clicksOf()).length >= 1, 5000);
      await new Promise((r) => setTimeout(r, 300));
      expect(await clicksOf()).toHaveLength(1);
    });

    it('blocked: 403 disabled page with the reason and no way through', async () => {
      const link = (await create({ originalUrl: 'https://soon-bad.example/', customCode: 'BlockMe1' }).expect(201)).body;
      await visit('/BlockMe1').expect(302);
      await w.env.prisma.link.update({ where: { id: link.id }, data: { safetyStatus: 'blocked', safetyReason: 'malware' } });
      await w.http().put(`/api/links/${link.id}`, { title: 'invalidate' }).expect(200);
      await waitFor(async () => (await visit('/BlockMe1')).status === 403, 2000);
      for (const path of ['/BlockMe1', '/BlockMe1?dl_continue=1']) {
        const res = await visit(path).expect(403);
        expect(res.text).toContain('This link has been disabled');
        expect(res.text).toContain('Reason: malware.');
        expect(res.headers.location).toBeUndefined();
      }
    });
  });
});
