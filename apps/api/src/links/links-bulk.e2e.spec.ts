import { bad, conflict, forbidden, invalidationListener, LinksWorld, linksWorld, notFound, queuedLinkEvents, waitFor } from './test/links-setup';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('links: bulk create, update, delete', () => {
  let w: LinksWorld;
  let template: string;
  const items = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) =>
    Array.from({ length: n }, (_, i) => ({ templateId: template, originalUrl: `https://example.com/${i}`, ...extra(i) }));
  const count = () => w.env.prisma.link.count({ where: { organizationId: w.a.organization.id } });

  beforeAll(async () => {
    w = await linksWorld();
    template = w.a.template.id;
  });
  afterAll(() => w?.close());

  describe('POST /api/links/bulk-create', () => {
    it('creates 100 links in input order with the create shape', async () => {
      const before = await count();
      const res = await w.http().post('/api/links/bulk-create', { links: items(100, (i) => ({ title: `T${i}` })) }).expect(201);
      expect(res.body.created).toBe(100);
      expect(res.body.links).toHaveLength(100);
      expect(res.body.links.map((l: { title: string }) => l.title)).toEqual(Array.from({ length: 100 }, (_, i) => `T${i}`));
      expect(res.body.links[0]).toMatchObject({ short_url: `http://sho.rt/${res.body.links[0].short_code}`, template_id: template, is_active: true });
      expect(new Set(res.body.links.map((l: { short_code: string }) => l.short_code)).size).toBe(100);
      expect(await count()).toBe(before + 100);
    });

    it('queues one link.created event per link and invalidates each code', async () => {
      const listener = await invalidationListener(w.env);
      try {
        const res = await w.http().post('/api/links/bulk-create', { links: items(3, (i) => ({ customCode: `BulkEv${i}x` })) }).expect(201);
        expect(res.body.created).toBe(3);
        await waitFor(() => ['BulkEv0x', 'BulkEv1x', 'BulkEv2x'].every((c) => listener.messages.includes(c)));
      } finally {
        await listener.close();
      }
      const events = (await queuedLinkEvents(w.env, w.a.organization.id)).filter((e) =>
        String((e.data as { shortCode: string }).shortCode).startsWith('BulkEv'),
      );
      expect(events.map((e) => e.type)).toEqual(['link.created', 'link.created', 'link.created']);
    });

    it('one bad item → 400 naming it, nothing written (all-or-nothing)', async () => {
      const before = await count();
      const links = items(5);
      links[3].originalUrl = 'notaurl';
      const res = await w.http().post('/api/links/bulk-create', { links }).expect(400);
      expect(res.body).toEqual(
        bad('Validation error: links[3].originalUrl: Must be a valid URL', { 'links[3].originalUrl': 'Must be a valid URL' }),
      );
      expect(await count()).toBe(before);
    });

    it('a taken customCode anywhere in the batch → 409, nothing written', async () => {
      await w.http().post('/api/links', { templateId: template, originalUrl: 'https://example.com', customCode: 'BulkTaken1' }).expect(201);
      const before = await count();
      const res = await w.http().post('/api/links/bulk-create', { links: items(4, (i) => (i === 2 ? { customCode: 'BulkTaken1' } : {})) }).expect(409);
      expect(res.body).toEqual(conflict("Short code 'BulkTaken1' is already in use"));
      expect(await count()).toBe(before);
    });

    it('foreign template or project → 404, nothing written', async () => {
      const before = await count();
      const pb = await w.http(w.keyB).post('/api/projects', { name: 'B' }).expect(201);
      expect((await w.http().post('/api/links/bulk-create', { links: items(2, (i) => (i ? { templateId: w.b.template.id } : {})) }).expect(404)).body).toEqual(notFound('Template not found'));
      expect((await w.http().post('/api/links/bulk-create', { links: items(2, (i) => (i ? { projectId: pb.body.id } : {})) }).expect(404)).body).toEqual(notFound('Project not found'));
      expect(await count()).toBe(before);
    });

    it('a Viewer → 403', async () => {
      expect((await w.http(w.viewerA).post('/api/links/bulk-create', { links: items(1) }).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    });

    it('a body over 1 MB → 413 Payload too large', async () => {
      const res = await w.http().post('/api/links/bulk-create', { links: items(1, () => ({ title: 'x'.repeat(1024 * 1024) })) }).expect(413);
      expect(res.body).toEqual({ error: 'Payload Too Large', message: 'Payload too large', statusCode: 413 });
    });
  });

  describe('POST /api/links/bulk-update', () => {
    let ids: string[];
    beforeAll(async () => {
      ids = (await w.http().post('/api/links/bulk-create', { links: items(3, (i) => ({ title: `U${i}` })) }).expect(201)).body.links.map((l: { id: string }) => l.id);
    });

    it('updates every item and answers camelCase links', async () => {
      const res = await w.http().post('/api/links/bulk-update', {
        updates: [
          { id: ids[0], data: { title: 'New 0', isActive: false } },
          { id: ids[1], data: { utmParameters: { campaign: 'c' } } },
        ],
      }).expect(200);
      expect(res.body.updated).toBe(2);
      expect(res.body.links[0]).toMatchObject({ id: ids[0], title: 'New 0', isActive: false, shortCode: expect.any(String), updatedAt: expect.any(String) });
      expect(res.body.links[1]).toMatchObject({ id: ids[1], title: 'U1', utmParameters: { campaign: 'c' } });
    });

    it('an unknown or foreign id → 404 Link not found: <id>, nothing changed', async () => {
      const foreign = (await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com' }).expect(201)).body.id;
      for (const bad of [UNKNOWN, foreign]) {
        const res = await w.http().post('/api/links/bulk-update', {
          updates: [{ id: ids[2], data: { title: 'Changed?' } }, { id: bad, data: { title: 'x' } }],
        }).expect(404);
        expect(res.body).toEqual(notFound(`Link not found: ${bad}`));
      }
      expect((await w.http().get(`/api/links/${ids[2]}`).expect(200)).body.title).toBe('U2');
    });

    it('an item refused → 400 naming it, nothing changed', async () => {
      const res = await w.http().post('/api/links/bulk-update', { updates: [{ id: ids[2], data: { title: 'Nope' } }, { id: UNKNOWN, data: { shortCode: 'abcd' } }] }).expect(400);
      expect(res.body).toEqual(bad('Validation error: updates[1].data.shortCode: Short code cannot be changed', { 'updates[1].data.shortCode': 'Short code cannot be changed' }));
      expect((await w.http().get(`/api/links/${ids[2]}`).expect(200)).body.title).toBe('U2');
    });

    it('foreign templateId in an item → 404 Template not found', async () => {
      const res = await w.http().post('/api/links/bulk-update', { updates: [{ id: ids[2], data: { templateId: w.b.template.id } }] }).expect(404);
      expect(res.body).toEqual(notFound('Template not found'));
    });
  });

  describe('POST /api/links/bulk-delete', () => {
    it('deletes the organization’s links, ignores unknown and foreign ids, counts what it deleted', async () => {
      const mine = (await w.http().post('/api/links/bulk-create', { links: items(3) }).expect(201)).body.links.map((l: { id: string }) => l.id);
      const foreign = (await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com' }).expect(201)).body.id;
      const res = await w.http().post('/api/links/bulk-delete', { ids: [...mine, UNKNOWN, foreign] }).expect(200);
      expect(res.body).toEqual({ deleted: 3 });
      expect(await w.env.prisma.link.count({ where: { id: { in: mine } } })).toBe(0);
      expect(await w.env.prisma.link.count({ where: { id: foreign } })).toBe(1);
      const events = (await queuedLinkEvents(w.env, w.a.organization.id)).filter((e) => e.type === 'link.deleted');
      expect(events.map((e) => (e.data as { id: string }).id).sort()).toEqual([...mine].sort());
    });

    it('a Viewer → 403', async () => {
      await w.http(w.viewerA).post('/api/links/bulk-delete', { ids: [UNKNOWN] }).expect(403);
    });
  });
});
