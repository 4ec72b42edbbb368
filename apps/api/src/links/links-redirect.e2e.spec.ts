import request from 'supertest';
import { createRedirectApp } from '@dl/apps/redirect';
import { closeAll, RunningApp, startApp, withoutClickId } from '@dl/testing';
import { LinksWorld, linksWorld, waitFor } from './test/links-setup';

/** The invalidation contract seen from a real redirect instance: changes are visible within 1 s. */
describe('links → redirect: changes reach a running redirect instance within 1 s', () => {
  let w: LinksWorld, edge: RunningApp;

  beforeAll(async () => {
    w = await linksWorld();
    edge = await startApp(createRedirectApp, w.env.config);
  });
  afterAll(() => closeAll(edge, w));

  const location = async (code: string) => {
    const res = await request(edge.url).get(`/${code}`).set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0');
    // Org A is on a paid plan: its web destinations end with dl_click (decisions §23).
    return { status: res.status, location: withoutClickId(res.headers.location as string | undefined) };
  };

  it('create, update, deactivate and delete are each seen within 1 s', async () => {
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/v1', customCode: 'EdgeLink1' }).expect(201)).body;
    expect(await location('EdgeLink1')).toMatchObject({ status: 302, location: 'https://example.com/v1' });

    await w.http().put(`/api/links/${link.id}`, { originalUrl: 'https://example.com/v2' }).expect(200);
    const t = Date.now();
    await waitFor(async () => (await location('EdgeLink1')).location === 'https://example.com/v2', 1000);
    expect(Date.now() - t).toBeLessThan(1000);

    await w.http().put(`/api/links/${link.id}`, { isActive: false }).expect(200);
    await waitFor(async () => (await location('EdgeLink1')).status === 404, 1000);

    await w.http().put(`/api/links/${link.id}`, { isActive: true }).expect(200);
    await waitFor(async () => (await location('EdgeLink1')).status === 302, 1000);

    await w.http().del(`/api/links/${link.id}`).expect(200);
    await waitFor(async () => (await location('EdgeLink1')).status === 404, 1000);
  });

  it('bulk update and bulk delete invalidate every code', async () => {
    const created = (await w.http().post('/api/links/bulk-create', {
      links: [1, 2].map((i) => ({ templateId: w.a.template.id, originalUrl: `https://example.com/b${i}`, customCode: `EdgeBulk${i}` })),
    }).expect(201)).body.links;
    for (const i of [1, 2]) expect((await location(`EdgeBulk${i}`)).location).toBe(`https://example.com/b${i}`);
    await w.http().post('/api/links/bulk-update', { updates: created.map((l: { id: string }) => ({ id: l.id, data: { originalUrl: 'https://example.com/bulk' } })) }).expect(200);
    await waitFor(async () => (await location('EdgeBulk1')).location === 'https://example.com/bulk' && (await location('EdgeBulk2')).location === 'https://example.com/bulk', 1000);
    await w.http().post('/api/links/bulk-delete', { ids: created.map((l: { id: string }) => l.id) }).expect(200);
    await waitFor(async () => (await location('EdgeBulk1')).status === 404 && (await location('EdgeBulk2')).status === 404, 1000);
  });
});
