import request from 'supertest';
import { LinksWorld, linksWorld } from './test/links-setup';

const CAFE = 'https://example.com/café/€?q=ü#é';
const CAFE_HREF = 'https://example.com/caf%C3%A9/%E2%82%AC?q=%C3%BC#%C3%A9';
const IDN = 'https://bücher.example/straße';
const IDN_HREF = 'https://xn--bcher-kva.example/stra%C3%9Fe';

/** Decisions §14: every URL the API accepts is stored in its WHATWG form (`new URL(v).href`). */
describe('hostile input at the API edge: URL normalisation', () => {
  let w: LinksWorld;
  let template: string;

  beforeAll(async () => {
    w = await linksWorld();
    template = w.a.template.id;
  });

  afterAll(async () => {
    await w?.close();
  });

  const stored = (id: string) => w.env.prisma.link.findUniqueOrThrow({ where: { id } });

  it('create (common body and full body) stores and answers the href', async () => {
    const plain = await w.http().post('/api/links', { templateId: template, originalUrl: CAFE }).expect(201);
    expect(plain.body.original_url).toBe(CAFE_HREF);
    expect((await stored(plain.body.id)).originalUrl).toBe(CAFE_HREF);

    const full = await w.http().post('/api/links', {
      templateId: template,
      originalUrl: IDN,
      iosUrl: CAFE,
      utmParameters: { utm_source: 'x' },
    }).expect(201);
    const row = await stored(full.body.id);
    expect(row.originalUrl).toBe(IDN_HREF);
    expect(row.iosUrl).toBe(CAFE_HREF);
  });

  it('update, bulk create and bulk update store the href', async () => {
    const id = (await w.http().post('/api/links', { templateId: template, originalUrl: 'https://example.com/a' }).expect(201)).body.id;
    await w.http().put(`/api/links/${id}`, { originalUrl: CAFE, webFallbackUrl: IDN }).expect(200);
    expect(await stored(id)).toMatchObject({ originalUrl: CAFE_HREF, webFallbackUrl: IDN_HREF });

    const bulk = await w.http().post('/api/links/bulk-create', { links: [{ templateId: template, originalUrl: IDN }] }).expect(201);
    expect((await stored(bulk.body.links[0].id)).originalUrl).toBe(IDN_HREF);

    await w.http().post('/api/links/bulk-update', { updates: [{ id, data: { androidUrl: CAFE } }] }).expect(200);
    expect((await stored(id)).androidUrl).toBe(CAFE_HREF);
  });

  it('template defaults are stored normalised and links made from them inherit the href', async () => {
    const created = await w.http().post('/api/templates', { name: 'Cafe', defaults: { originalUrl: CAFE } }).expect(201);
    expect(created.body.defaults).toEqual({ originalUrl: CAFE_HREF });
    const link = await w.http().post('/api/links', { templateId: created.body.id }).expect(201);
    expect(link.body.original_url).toBe(CAFE_HREF);
  });

  it('webhooks and apps store the href', async () => {
    const hook = await w.http().post('/api/webhooks', { url: 'https://example.com/hooks/é', events: ['link.created'] }).expect(201);
    expect(hook.body.url).toBe('https://example.com/hooks/%C3%A9');
    const auth = { Authorization: `Bearer ${w.keyA}` };
    const patched = await request(w.api.url).patch(`/api/webhooks/${hook.body.id}`).set(auth).send({ url: 'https://bücher.example/h' }).expect(200);
    expect(patched.body.url).toBe('https://xn--bcher-kva.example/h');
    const app = await w.http().post('/api/apps', { name: 'Shop', platform: 'ios', bundleId: 'com.example.shop', appStoreUrl: 'https://apps.apple.com/fr/app/café/id1' }).expect(201);
    expect(app.body.appStoreUrl).toBe('https://apps.apple.com/fr/app/caf%C3%A9/id1');
  });
});
