import { useSuite } from '@dl/testing';
import { bad, conflict, forbidden, linksWorld, notFound } from '../links/test/links-setup';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('templates: /api/templates', () => {
  const w = useSuite(async (own) => own(await linksWorld()));

  it('signup made a `default` template; the list shows linkCount', async () => {
    await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com' }).expect(201);
    const res = await w.http().get('/api/templates').expect(200);
    expect(res.body).toEqual([
      {
        id: w.a.template.id,
        name: expect.any(String),
        slug: 'default',
        description: expect.any(String),
        defaults: {},
        linkCount: 1,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
  });

  it('create, read, update, delete', async () => {
    const created = await w.http().post('/api/templates', {
      name: 'Spring Sale 2026',
      description: 'Seasonal',
      defaults: { originalUrl: 'https://example.com/spring', utmParameters: { utm_campaign: 'spring' }, targetingRules: { platforms: ['ios'] }, expiresInDays: 30 },
    }).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Spring Sale 2026',
      slug: 'spring-sale-2026',
      description: 'Seasonal',
      defaults: { originalUrl: 'https://example.com/spring', utmParameters: { campaign: 'spring' }, targetingRules: { devices: ['ios'] }, expiresInDays: 30 },
      linkCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.id;
    expect((await w.http().get(`/api/templates/${id}`).expect(200)).body).toEqual(created.body);
    const updated = await w.http().put(`/api/templates/${id}`, { name: 'Renamed', slug: 'renamed', defaults: { title: 'T' } }).expect(200);
    expect(updated.body).toMatchObject({ id, name: 'Renamed', slug: 'renamed', description: 'Seasonal', defaults: { title: 'T' } });
    expect((await w.http().del(`/api/templates/${id}`).expect(200)).body).toEqual({ success: true });
    expect((await w.http().get(`/api/templates/${id}`).expect(404)).body).toEqual(notFound('Template not found'));
  });

  it('slug unique per organization → 409; another organization may reuse it', async () => {
    await w.http().post('/api/templates', { name: 'Dup', slug: 'dup' }).expect(201);
    expect((await w.http().post('/api/templates', { name: 'Dup 2', slug: 'dup' }).expect(409)).body).toEqual(conflict("Template slug 'dup' is already in use"));
    await w.http(w.keyB).post('/api/templates', { name: 'Dup', slug: 'dup' }).expect(201);
    const other = await w.http().post('/api/templates', { name: 'Other', slug: 'other-slug' }).expect(201);
    expect((await w.http().put(`/api/templates/${other.body.id}`, { slug: 'dup' }).expect(409)).body).toEqual(conflict("Template slug 'dup' is already in use"));
  });

  it('deleting a template in use → 409 Template is in use by N links', async () => {
    const t = await w.http().post('/api/templates', { name: 'Used', defaults: { originalUrl: 'https://example.com' } }).expect(201);
    for (let i = 0; i < 2; i++) await w.http().post('/api/links', { templateId: t.body.id }).expect(201);
    expect((await w.http().del(`/api/templates/${t.body.id}`).expect(409)).body).toEqual(conflict('Template is in use by 2 links'));
    expect((await w.http().get(`/api/templates/${t.body.id}`).expect(200)).body.linkCount).toBe(2);
  });

  // One refusal over HTTP; every rule of the bodies: libs/templates/src/template.dto.spec.ts.
  it('a bad URL in the defaults → 400 with the link message', async () => {
    expect((await w.http().post('/api/templates', { name: 'x', defaults: { originalUrl: 'ftp://x' } }).expect(400)).body).toEqual(
      bad('Invalid URL format', { 'defaults.originalUrl': 'Must be a valid URL' }),
    );
  });

  it('update with an empty body → 400 No updates provided', async () => {
    expect((await w.http().put(`/api/templates/${w.a.template.id}`, {}).expect(400)).body).toEqual(bad('No updates provided'));
  });

  it('update: a null name → 400, nothing changed; null defaults clears them', async () => {
    const t = await w.http().post('/api/templates', { name: 'Nulls', slug: 'nulls', defaults: { tags: ['x'] } }).expect(201);
    expect((await w.http().put(`/api/templates/${t.body.id}`, { name: null }).expect(400)).body).toEqual(
      bad('Validation error', { name: 'Must be a non-empty string of at most 100 characters' }),
    );
    expect((await w.http().get(`/api/templates/${t.body.id}`).expect(200)).body).toMatchObject({ name: 'Nulls', slug: 'nulls', defaults: { tags: ['x'] } });
    const cleared = await w.http().put(`/api/templates/${t.body.id}`, { defaults: null }).expect(200);
    expect(cleared.body).toMatchObject({ name: 'Nulls', slug: 'nulls', defaults: {} });
  });

  it('another organization → 404 on read, update and delete; malformed id → 400', async () => {
    const id = w.a.template.id;
    expect((await w.http(w.keyB).get(`/api/templates/${id}`).expect(404)).body).toEqual(notFound('Template not found'));
    expect((await w.http(w.keyB).put(`/api/templates/${id}`, { name: 'x' }).expect(404)).body).toEqual(notFound('Template not found'));
    expect((await w.http(w.keyB).del(`/api/templates/${id}`).expect(404)).body).toEqual(notFound('Template not found'));
    expect((await w.http(w.keyB).get('/api/templates').expect(200)).body.map((t: { id: string }) => t.id)).not.toContain(id);
    expect((await w.http().get('/api/templates/xyz').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
    expect((await w.http().get(`/api/templates/${UNKNOWN}`).expect(404)).body).toEqual(notFound('Template not found'));
  });

  it('roles: Viewer reads only; Member creates and updates; only Admin/Owner delete', async () => {
    await w.http(w.viewerA).get('/api/templates').expect(200);
    expect((await w.http(w.viewerA).post('/api/templates', { name: 'v' }).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    const t = await w.http(w.memberA).post('/api/templates', { name: 'By member' }).expect(201);
    await w.http(w.memberA).put(`/api/templates/${t.body.id}`, { name: 'Still member' }).expect(200);
    expect((await w.http(w.memberA).del(`/api/templates/${t.body.id}`).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    await w.http(w.adminA).del(`/api/templates/${t.body.id}`).expect(200);
  });
});
