import request from 'supertest';
import { bad, conflict, forbidden, invalidationListener, LinksWorld, linksWorld, notFound, queuedLinkEvents, waitFor } from './test/links-setup';

const future = () => new Date(Date.now() + 7 * 86_400_000).toISOString();
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('links: POST/GET/PUT/DELETE /api/links', () => {
  let w: LinksWorld;
  beforeAll(async () => (w = await linksWorld()));
  afterAll(() => w?.close());

  const create = (body: Record<string, unknown>, key?: string) => w.http(key).post('/api/links', { templateId: w.a.template.id, ...body });

  describe('create', () => {
    it('answers 201 with the Cloud snake_case shape, nulls for unset fields', async () => {
      const res = await create({ originalUrl: 'https://example.com/a' }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        domain: 'sho.rt',
        short_code: expect.stringMatching(/^[0-9A-Za-z]{7}$/),
        short_url: `http://sho.rt/${res.body.short_code}`,
        user_id: w.a.owner.user.id,
        organization_id: w.a.organization.id,
        project_id: null,
        template_id: w.a.template.id,
        template_slug: 'default',
        original_url: 'https://example.com/a',
        title: null,
        description: null,
        ios_url: null,
        android_url: null,
        web_fallback_url: null,
        app_scheme: null,
        ios_universal_link: null,
        android_app_link: null,
        deep_link_path: null,
        deep_link_parameters: null,
        attribution_window_hours: 168,
        utm_parameters: null,
        targeting_rules: null,
        og_title: null,
        og_description: null,
        og_image_url: null,
        tags: [],
        is_active: true,
        expires_at: null,
        migration_metadata: null,
        has_password: false,
        safety: { status: 'ok', reason: null, checkedAt: expect.any(String) },
        expired_url: null,
        max_clicks: null,
        variants: null,
        redirect_rules: null,
        cloak: false,
        public_stats: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(res.body.created_at).toBe(res.body.updated_at);
    });

    it('stores every field; UTM on create uses utm_* keys, reads use bare keys', async () => {
      const expiresAt = future();
      const res = await create({
        originalUrl: 'https://example.com/full',
        title: 'Full',
        description: 'All fields',
        iosUrl: 'https://apps.apple.com/app/id1',
        androidUrl: 'https://play.google.com/store/apps/details?id=x',
        webFallbackUrl: 'https://example.com/web',
        customCode: 'FullLink1',
        attributionWindowHours: 24,
        utmParameters: { utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring', utm_term: 't', utm_content: 'c' },
        targetingRules: { countries: ['US', 'FR'], languages: ['en'], platforms: ['ios', 'web'] },
        deepLinkParameters: { product: '42', promo: true },
        deepLinkPath: 'product/42',
        ogTitle: 'OG',
        ogDescription: 'OG description',
        ogImageUrl: 'https://example.com/og.png',
        tags: ['a', 'b'],
        expiresAt,
      }).expect(201);
      expect(res.body).toMatchObject({
        short_code: 'FullLink1',
        short_url: 'http://sho.rt/FullLink1',
        attribution_window_hours: 24,
        utm_parameters: { utm_source: 'news', utm_medium: 'email', utm_campaign: 'spring', utm_term: 't', utm_content: 'c' },
        targeting_rules: { countries: ['US', 'FR'], devices: ['ios', 'web'], languages: ['en'] },
        deep_link_parameters: { product: '42', promo: true },
        expires_at: expiresAt,
        tags: ['a', 'b'],
      });
      const read = await w.http().get(`/api/links/${res.body.id}`).expect(200);
      expect(read.body.utmParameters).toEqual({ source: 'news', medium: 'email', campaign: 'spring', term: 't', content: 'c' });
      expect(read.body.targetingRules).toEqual({ countries: ['US', 'FR'], devices: ['ios', 'web'], languages: ['en'] });
    });

    it('template defaults fill what the request leaves out (expiresInDays too)', async () => {
      const t = await w.http().post('/api/templates', {
        name: 'Campaign',
        defaults: {
          originalUrl: 'https://example.com/default',
          title: 'Default title',
          attributionWindowHours: 48,
          utmParameters: { source: 'tpl' },
          expiresInDays: 10,
        },
      }).expect(201);
      const res = await create({ templateId: t.body.id, title: 'Mine' }).expect(201);
      expect(res.body).toMatchObject({
        original_url: 'https://example.com/default',
        title: 'Mine',
        attribution_window_hours: 48,
        utm_parameters: { utm_source: 'tpl' },
        template_slug: 'campaign',
      });
      const days = (Date.parse(res.body.expires_at) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(9.9);
      expect(days).toBeLessThanOrEqual(10);
    });

    // Decisions §14: every URL the API accepts is stored in its WHATWG form (`new URL(v).href`).
    // Over HTTP, a create on each body path (the common body's fast check and the full pipe);
    // every URL field, update, bulk and template defaults: libs/links/src/link-values.spec.ts,
    // webhooks and apps: their services' medium specs.
    it('stores and answers URLs as their WHATWG href (common body and full body)', async () => {
      const CAFE = 'https://example.com/café/€?q=ü#é';
      const CAFE_HREF = 'https://example.com/caf%C3%A9/%E2%82%AC?q=%C3%BC#%C3%A9';
      const stored = (id: string) => w.env.prisma.link.findUniqueOrThrow({ where: { id } });
      const plain = await create({ originalUrl: CAFE }).expect(201);
      expect(plain.body.original_url).toBe(CAFE_HREF);
      expect((await stored(plain.body.id)).originalUrl).toBe(CAFE_HREF);
      const full = await create({ originalUrl: 'https://bücher.example/straße', iosUrl: CAFE, utmParameters: { utm_source: 'x' } }).expect(201);
      expect(await stored(full.body.id)).toMatchObject({ originalUrl: 'https://xn--bcher-kva.example/stra%C3%9Fe', iosUrl: CAFE_HREF });
    });

    // One refusal of each rule family over HTTP (the exact body); every rule of the body is in
    // libs/links/src/link.dto.spec.ts, the service's in links.service.medium.spec.ts.
    it.each([
      [{ originalUrl: 'javascript:alert(1)' }, 'Invalid URL format', { originalUrl: 'Must be a valid URL' }],
      [{ originalUrl: 'https://example.com', attributionWindowHours: 2161 }, 'Attribution window must be between 1 and 2160 hours', { attributionWindowHours: 'Must be between 1 and 2160' }],
      [{ originalUrl: 'https://example.com', foo: 1 }, 'Validation error', { foo: 'Unknown field' }],
    ])('%j → 400 %s', async (body, message, validation) => {
      expect((await create(body).expect(400)).body).toEqual(bad(message, validation));
    });

    it('unknown or foreign templateId → 404 Template not found', async () => {
      expect((await create({ originalUrl: 'https://example.com', templateId: UNKNOWN }).expect(404)).body).toEqual(notFound('Template not found'));
      expect((await create({ originalUrl: 'https://example.com', templateId: w.b.template.id }).expect(404)).body).toEqual(notFound('Template not found'));
    });

    it('a code taken in any organization → 409', async () => {
      await create({ originalUrl: 'https://example.com', customCode: 'Taken01' }).expect(201);
      const other = await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com', customCode: 'Taken01' }).expect(409);
      expect(other.body).toEqual(conflict("Short code 'Taken01' is already in use"));
    });

    it('a Viewer cannot create (403); a Member can', async () => {
      const res = await create({ originalUrl: 'https://example.com' }, w.viewerA).expect(403);
      expect(res.body).toEqual(forbidden('Your role does not allow this action'));
      await create({ originalUrl: 'https://example.com' }, w.memberA).expect(201);
    });

    it('no or a bad credential → 401', async () => {
      const res = await request(w.api.url).post('/api/links').send({ templateId: w.a.template.id, originalUrl: 'https://example.com' }).expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Missing or invalid API key', statusCode: 401 });
    });

    it('malformed JSON → 400 Invalid JSON body', async () => {
      const res = await request(w.api.url)
        .post('/api/links')
        .set('Authorization', `Bearer ${w.keyA}`)
        .set('content-type', 'application/json')
        .send('{"templateId": ')
        .expect(400);
      expect(res.body).toEqual(bad('Invalid JSON body'));
    });
  });

  describe('read and list', () => {
    let linkId: string;
    let projectId: string;

    beforeAll(async () => {
      projectId = (await w.http().post('/api/projects', { name: 'P' }).expect(201)).body.id;
      linkId = (await create({ originalUrl: 'https://example.com/read', title: 'Read me', projectId }).expect(201)).body.id;
    });

    it('GET /api/links/:id answers the camelCase read shape', async () => {
      const res = await w.http().get(`/api/links/${linkId}`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(
        [
          'id', 'userId', 'organizationId', 'projectId', 'templateId', 'templateSlug', 'domain', 'shortCode', 'shortUrl', 'originalUrl',
          'title', 'description', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'appScheme', 'iosUniversalLink', 'androidAppLink',
          'deepLinkPath', 'deepLinkParameters', 'utmParameters', 'targetingRules', 'attributionWindowHours', 'ogTitle',
          'ogDescription', 'ogImageUrl', 'tags', 'expiresAt', 'isActive', 'status', 'clickCount', 'migrationMetadata',
          'createdAt', 'updatedAt', 'hasPassword', 'safety', 'expiredUrl', 'maxClicks', 'variants', 'redirectRules', 'cloak', 'publicStats',
        ].sort(),
      );
      expect(res.body).toMatchObject({
        id: linkId,
        projectId,
        templateId: w.a.template.id,
        templateSlug: 'default',
        originalUrl: 'https://example.com/read',
        title: 'Read me',
        webFallbackUrl: null,
        expiresAt: null,
        isActive: true,
        status: 'active',
        clickCount: 0,
      });
    });

    it('a Viewer can read', async () => {
      await w.http(w.viewerA).get(`/api/links/${linkId}`).expect(200);
    });

    it('another organization, an unknown id → 404 Link not found; a malformed id → 400', async () => {
      expect((await w.http(w.keyB).get(`/api/links/${linkId}`).expect(404)).body).toEqual(notFound('Link not found'));
      expect((await w.http().get(`/api/links/${UNKNOWN}`).expect(404)).body).toEqual(notFound('Link not found'));
      expect((await w.http().get('/api/links/not-a-uuid').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
    });

    it('GET /api/links/:id without Authorization → 401 Authentication required', async () => {
      const res = await request(w.api.url).get(`/api/links/${linkId}`).expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Authentication required', statusCode: 401 });
    });

    it('GET /api/links lists all links newest first with the list fields', async () => {
      const res = await w.http().get('/api/links').expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const rows = await w.env.prisma.link.findMany({
        where: { organizationId: w.a.organization.id },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      });
      expect(res.body.map((l: { id: string }) => l.id)).toEqual(rows.map((r) => r.id));
      const item = res.body.find((l: { id: string }) => l.id === linkId);
      expect(item).toEqual({
        id: linkId,
        domain: 'sho.rt',
        shortCode: expect.any(String),
        shortUrl: `http://sho.rt/${item.shortCode}`,
        title: 'Read me',
        originalUrl: 'https://example.com/read',
        clickCount: 0,
        templateSlug: 'default',
        safety: { status: 'ok', reason: null, checkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const b = await w.http(w.keyB).get('/api/links').expect(200);
      expect(b.body.some((l: { id: string }) => l.id === linkId)).toBe(false);
    });

    it('GET /api/links?projectId= lists that project only; foreign → 404; malformed → 400', async () => {
      const res = await w.http().get(`/api/links?projectId=${projectId}`).expect(200);
      expect(res.body.map((l: { id: string }) => l.id)).toEqual([linkId]);
      const pb = await w.http(w.keyB).post('/api/projects', { name: 'B' }).expect(201);
      expect((await w.http().get(`/api/links?projectId=${pb.body.id}`).expect(404)).body).toEqual(notFound('Project not found'));
      expect((await w.http().get('/api/links?projectId=x').expect(400)).body).toEqual(bad('Validation error', { projectId: 'Must be a valid UUID' }));
      expect((await w.http().get('/api/links?foo=1').expect(400)).body).toEqual(bad('Validation error', { foo: 'Unknown field' }));
    });
  });

  describe('update', () => {
    let link: { id: string; short_code: string; created_at: string; updated_at: string };
    beforeAll(async () => {
      link = (await create({ originalUrl: 'https://example.com/u', title: 'Before' }).expect(201)).body;
    });

    it('changes only supplied fields, keeps createdAt, moves updatedAt, answers camelCase', async () => {
      await new Promise((r) => setTimeout(r, 5));
      const res = await w.http().put(`/api/links/${link.id}`, {
        title: 'After',
        utmParameters: { source: 's', term: 't' },
        targetingRules: { devices: ['android'] },
        webFallbackUrl: 'https://example.com/web',
      }).expect(200);
      expect(res.body).toMatchObject({
        id: link.id,
        shortCode: link.short_code,
        originalUrl: 'https://example.com/u',
        title: 'After',
        utmParameters: { source: 's', term: 't' },
        targetingRules: { devices: ['android'] },
        webFallbackUrl: 'https://example.com/web',
        createdAt: link.created_at,
      });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(link.updated_at));
    });

    it('null clears an optional field', async () => {
      const res = await w.http().put(`/api/links/${link.id}`, { webFallbackUrl: null, title: null }).expect(200);
      expect(res.body).toMatchObject({ webFallbackUrl: null, title: null });
    });

    it('isActive false then true', async () => {
      expect((await w.http().put(`/api/links/${link.id}`, { isActive: false }).expect(200)).body).toMatchObject({ isActive: false, status: 'inactive' });
      expect((await w.http().put(`/api/links/${link.id}`, { isActive: true }).expect(200)).body).toMatchObject({ isActive: true, status: 'active' });
    });

    it('expiry is derived at once; a later expiresAt or null revives the link', async () => {
      await w.env.prisma.link.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await w.http().get(`/api/links/${link.id}`).expect(200)).body.status).toBe('expired');
      expect((await w.http().put(`/api/links/${link.id}`, { expiresAt: future() }).expect(200)).body.status).toBe('active');
      await w.env.prisma.link.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await w.http().put(`/api/links/${link.id}`, { expiresAt: null }).expect(200)).body).toMatchObject({ status: 'active', expiresAt: null });
    });

    it('changing templateId does not re-apply its defaults; projectId null unassigns', async () => {
      const t = await w.http().post('/api/templates', { name: 'Other', defaults: { title: 'Template title' } }).expect(201);
      const p = await w.http().post('/api/projects', { name: 'Proj' }).expect(201);
      const res = await w.http().put(`/api/links/${link.id}`, { templateId: t.body.id, projectId: p.body.id, title: 'Kept' }).expect(200);
      expect(res.body).toMatchObject({ templateId: t.body.id, templateSlug: 'other', projectId: p.body.id, title: 'Kept' });
      expect((await w.http().put(`/api/links/${link.id}`, { projectId: null, templateId: w.a.template.id }).expect(200)).body.projectId).toBeNull();
    });

    it('empty body → 400 No updates provided', async () => {
      expect((await w.http().put(`/api/links/${link.id}`, {}).expect(400)).body).toEqual(bad('No updates provided'));
    });

    it('shortCode cannot be changed', async () => {
      const res = await w.http().put(`/api/links/${link.id}`, { shortCode: 'NewCode1' }).expect(400);
      expect(res.body).toEqual(bad('Validation error', { shortCode: 'Short code cannot be changed' }));
    });

    it('foreign templateId or projectId → 404 like missing', async () => {
      const pb = await w.http(w.keyB).post('/api/projects', { name: 'B2' }).expect(201);
      expect((await w.http().put(`/api/links/${link.id}`, { templateId: w.b.template.id }).expect(404)).body).toEqual(notFound('Template not found'));
      expect((await w.http().put(`/api/links/${link.id}`, { projectId: pb.body.id }).expect(404)).body).toEqual(notFound('Project not found'));
    });

    it('another organization → 404; Viewer → 403; malformed id → 400', async () => {
      expect((await w.http(w.keyB).put(`/api/links/${link.id}`, { title: 'x' }).expect(404)).body).toEqual(notFound('Link not found'));
      expect((await w.http(w.viewerA).put(`/api/links/${link.id}`, { title: 'x' }).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
      expect((await w.http().put('/api/links/123', { title: 'x' }).expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
    });
  });

  describe('delete', () => {
    it('removes the link, its clicks, rollups, visitors and QR images in one go; the code is free at once', async () => {
      const link = (await create({ originalUrl: 'https://example.com/d', customCode: 'DeleteMe1' }).expect(201)).body;
      const org = w.a.organization.id;
      await w.http().get(`/api/links/${link.id}/qr`).expect(200);
      await w.env.prisma.click.create({
        data: { id: '11111111-1111-4111-8111-111111111111', organizationId: org, linkId: link.id, clickedAt: new Date(), visitorHash: 'v' },
      });
      await w.env.prisma.clickRollup.create({ data: { organizationId: org, linkId: link.id, day: new Date('2026-01-01'), dimension: 'total', value: '', clicks: 1 } });
      await w.env.prisma.clickDailyVisitor.create({ data: { organizationId: org, linkId: link.id, day: new Date('2026-01-01'), visitorHash: 'v' } });
      expect(await w.env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(1);

      expect((await w.http().del(`/api/links/${link.id}`).expect(200)).body).toEqual({ success: true });
      expect(await w.env.prisma.link.count({ where: { id: link.id } })).toBe(0);
      expect(await w.env.prisma.click.count({ where: { linkId: link.id } })).toBe(0);
      expect(await w.env.prisma.clickRollup.count({ where: { linkId: link.id } })).toBe(0);
      expect(await w.env.prisma.clickDailyVisitor.count({ where: { linkId: link.id } })).toBe(0);
      expect(await w.env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(0);
      expect((await w.http().del(`/api/links/${link.id}`).expect(404)).body).toEqual(notFound('Link not found'));
      await create({ originalUrl: 'https://example.com/d2', customCode: 'DeleteMe1' }).expect(201);
    });

    it('another organization → 404 and nothing deleted; no Authorization → 401 Authentication required; Viewer → 403', async () => {
      const link = (await create({ originalUrl: 'https://example.com/keep' }).expect(201)).body;
      expect((await w.http(w.keyB).del(`/api/links/${link.id}`).expect(404)).body).toEqual(notFound('Link not found'));
      const res = await request(w.api.url).delete(`/api/links/${link.id}`).expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Authentication required', statusCode: 401 });
      await w.http(w.viewerA).del(`/api/links/${link.id}`).expect(403);
      expect((await w.http().del('/api/links/zzz').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
      expect(await w.env.prisma.link.count({ where: { id: link.id } })).toBe(1);
    });
  });

  describe('notifications', () => {
    it('create, update and delete publish the short code on the invalidation channel and queue link.* events', async () => {
      const listener = await invalidationListener(w.env);
      try {
        const created = (await create({ originalUrl: 'https://example.com/ev', customCode: 'EventLink1' }).expect(201)).body;
        await w.http().put(`/api/links/${created.id}`, { title: 'Changed' }).expect(200);
        await w.http().del(`/api/links/${created.id}`).expect(200);
        await waitFor(() => listener.messages.filter((m) => m === 'EventLink1').length === 3);
      } finally {
        await listener.close();
      }
      const events = (await queuedLinkEvents(w.env, w.a.organization.id)).filter(
        (e) => (e.data as { shortCode?: string }).shortCode === 'EventLink1',
      );
      expect(events.map((e) => e.type).sort()).toEqual(['link.created', 'link.deleted', 'link.updated']);
      const updated = events.find((e) => e.type === 'link.updated')!;
      expect(updated).toMatchObject({
        eventId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        organizationId: w.a.organization.id,
        projectId: null,
        occurredAt: expect.any(String),
        data: { shortCode: 'EventLink1', title: 'Changed', migration_metadata: null, originalUrl: 'https://example.com/ev' },
      });
    });
  });
});
