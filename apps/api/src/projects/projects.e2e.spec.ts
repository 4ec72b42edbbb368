import { useSuite } from '@dl/testing';
import { bad, forbidden, invalidationListener, linksWorld, notFound, waitFor } from '../links/test/links-setup';

describe('projects: /api/projects', () => {
  const w = useSuite(async (own) => own(await linksWorld()));

  it('create answers the snake_case project; list items; read; update', async () => {
    const res = await w.http().post('/api/projects', { name: 'Launch', description: 'Q1' }).expect(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      user_id: w.a.owner.user.id,
      organization_id: w.a.organization.id,
      name: 'Launch',
      description: 'Q1',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const list = await w.http().get('/api/projects').expect(200);
    expect(list.body).toContainEqual({ id: res.body.id, name: 'Launch', description: 'Q1', created_at: res.body.created_at, updated_at: res.body.updated_at });
    expect((await w.http().get(`/api/projects/${res.body.id}`).expect(200)).body).toEqual(res.body);
    const updated = await w.http().put(`/api/projects/${res.body.id}`, { name: 'Launch 2', description: null }).expect(200);
    expect(updated.body).toMatchObject({ name: 'Launch 2', description: null, created_at: res.body.created_at });
    const noDesc = await w.http().post('/api/projects', { name: 'No description' }).expect(201);
    expect(noDesc.body.description).toBeNull();
  });

  it('delete unassigns its links (they stay) and drops them from redirect caches', async () => {
    const p = await w.http().post('/api/projects', { name: 'Doomed' }).expect(201);
    const link = await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com', projectId: p.body.id, customCode: 'InProject1' }).expect(201);
    const listener = await invalidationListener(w.env);
    try {
      expect((await w.http().del(`/api/projects/${p.body.id}`).expect(200)).body).toEqual({ success: true });
      await waitFor(() => listener.messages.includes('InProject1'));
    } finally {
      await listener.close();
    }
    const read = await w.http().get(`/api/links/${link.body.id}`).expect(200);
    expect(read.body.projectId).toBeNull();
    expect((await w.http().get(`/api/projects/${p.body.id}`).expect(404)).body).toEqual(notFound('Project not found'));
  });

  // One refusal over HTTP; every rule of the bodies: libs/projects/src/project.dto.spec.ts.
  it('create without a name → 400 Validation error', async () => {
    expect((await w.http().post('/api/projects', {}).expect(400)).body).toEqual(bad('Validation error', { name: 'Must be a non-empty string of at most 100 characters' }));
  });

  it('update with an empty body → 400 No updates provided', async () => {
    const p = await w.http().post('/api/projects', { name: 'E' }).expect(201);
    expect((await w.http().put(`/api/projects/${p.body.id}`, {}).expect(400)).body).toEqual(bad('No updates provided'));
  });

  it('update with a null name → 400 naming it, nothing changed', async () => {
    const p = await w.http().post('/api/projects', { name: 'Kept' }).expect(201);
    expect((await w.http().put(`/api/projects/${p.body.id}`, { name: null }).expect(400)).body).toEqual(
      bad('Validation error', { name: 'Must be a non-empty string of at most 100 characters' }),
    );
    expect((await w.http().get(`/api/projects/${p.body.id}`).expect(200)).body).toMatchObject({ name: 'Kept' });
  });

  it('another organization → 404 Project not found for read, update, delete; malformed id → 400', async () => {
    const p = await w.http().post('/api/projects', { name: 'Mine' }).expect(201);
    expect((await w.http(w.keyB).get(`/api/projects/${p.body.id}`).expect(404)).body).toEqual(notFound('Project not found'));
    expect((await w.http(w.keyB).put(`/api/projects/${p.body.id}`, { name: 'x' }).expect(404)).body).toEqual(notFound('Project not found'));
    expect((await w.http(w.keyB).del(`/api/projects/${p.body.id}`).expect(404)).body).toEqual(notFound('Project not found'));
    expect((await w.http(w.keyB).get('/api/projects').expect(200)).body.map((x: { id: string }) => x.id)).not.toContain(p.body.id);
    expect((await w.http().get('/api/projects/1').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
    expect((await w.http().get(`/api/projects/${p.body.id}`).expect(200)).body.name).toBe('Mine');
  });

  it('roles: Viewer reads; Member creates and updates; Admin/Owner delete', async () => {
    await w.http(w.viewerA).get('/api/projects').expect(200);
    expect((await w.http(w.viewerA).post('/api/projects', { name: 'v' }).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    const p = await w.http(w.memberA).post('/api/projects', { name: 'm' }).expect(201);
    expect(p.body.user_id).not.toBe(w.a.owner.user.id);
    await w.http(w.memberA).put(`/api/projects/${p.body.id}`, { name: 'm2' }).expect(200);
    expect((await w.http(w.memberA).del(`/api/projects/${p.body.id}`).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    await w.http(w.adminA).del(`/api/projects/${p.body.id}`).expect(200);
  });
});
