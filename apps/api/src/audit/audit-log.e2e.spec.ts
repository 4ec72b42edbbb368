import { addMember, clientAs, seedOrganization, useApp } from '@dl/testing';
import { createApiApp } from '../app';

const UA = 'audit-e2e/1.0';

describe('audit log (/api/audit-log, decisions §25)', () => {
  const s = useApp(createApiApp, { RATE_LIMIT_ENABLED: 'false' }, async (env) => ({ org: await seedOrganization(env, { tier: 'BUSINESS' }) }));

  const as = (token: string) => clientAs(s.server.url, token, { 'User-Agent': UA });
  /** Entries are written in batches (≤ 50 ms): wait until `n` match. */
  const entries = async (query: string, n: number) => {
    for (let i = 0; i < 100; i++) {
      const res = await as(s.org.owner.jwt).get(`/api/audit-log?${query}`).expect(200);
      if (res.body.entries.length >= n) return res;
      await new Promise((r) => setTimeout(r, 30));
    }
    throw new Error(`fewer than ${n} entries for ${query}`);
  };

  it('records the actor, target, redacted changes, IP, user agent and request id of a change made with a session and with a key', async () => {
    const created = await as(s.org.owner.jwt).post('/api/keys', { name: 'deploy', scopes: ['links:write'] }).expect(201);
    const keyEntry = (await entries(`action=api_key.created&targetId=${created.body.id}`, 1)).body.entries[0];
    expect(keyEntry).toEqual({
      id: expect.any(String),
      actor: { type: 'user', id: s.org.owner.user.id, name: s.org.owner.user.name },
      action: 'api_key.created',
      targetType: 'api_key',
      targetId: created.body.id,
      changes: { name: 'deploy', scopes: ['links:write'], expiresAt: null },
      ip: expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
      userAgent: UA,
      requestId: created.headers['x-request-id'],
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(keyEntry)).not.toContain(created.body.key);

    const project = await as(created.body.key).post('/api/projects', { name: 'Launch' }).expect(201);
    await as(created.body.key).put(`/api/projects/${project.body.id}`, { description: 'Spring' }).expect(200);
    const byKey = (await entries(`targetId=${project.body.id}`, 2)).body.entries;
    expect(byKey.map((e: { action: string }) => e.action)).toEqual(['project.updated', 'project.created']);
    expect(byKey[0].actor).toEqual({ type: 'apiKey', id: created.body.id, name: 'deploy' });
    expect(byKey[0].changes).toEqual({ description: 'Spring' });
    const mine = await as(s.org.owner.jwt).get(`/api/audit-log?actorId=${created.body.id}`).expect(200);
    expect(mine.body.entries).toHaveLength(2);
  });

  it('template changes are recorded with what changed', async () => {
    const t = await as(s.org.owner.jwt).post('/api/templates', { name: 'Spring sale', slug: 'spring-sale' }).expect(201);
    await as(s.org.owner.jwt).put(`/api/templates/${t.body.id}`, { name: 'Summer sale' }).expect(200);
    await as(s.org.owner.jwt).delete(`/api/templates/${t.body.id}`).expect(200);
    const list = (await entries(`targetId=${t.body.id}`, 3)).body.entries;
    expect(list.map((e: { action: string; changes: unknown }) => [e.action, e.changes])).toEqual([
      ['template.deleted', null],
      ['template.updated', { name: 'Summer sale' }],
      ['template.created', { name: 'Spring sale', slug: 'spring-sale' }],
    ]);
  });

  it('role changes and removals are recorded; Admins read the log, Members get 403', async () => {
    const member = await addMember(s.env, s.org.organization.id, 'MEMBER');
    await as(s.org.owner.jwt).patch(`/api/organization/members/${member.user.id}`, { role: 'ADMIN' }).expect(200);
    const entry = (await entries(`action=member.role_changed&targetId=${member.user.id}`, 1)).body.entries[0];
    expect(entry.changes).toEqual({ role: { from: 'MEMBER', to: 'ADMIN' } });
    await as(member.jwt).get('/api/audit-log').expect(200);
    const viewer = await addMember(s.env, s.org.organization.id, 'MEMBER');
    expect((await as(viewer.jwt).get('/api/audit-log').expect(403)).body).toEqual({ error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 });
    await as(s.org.owner.jwt).delete(`/api/organization/members/${member.user.id}`).expect(204);
    await entries(`action=member.removed&targetId=${member.user.id}`, 1);
  });

  it('pages with X-Next-Cursor; another organization sees none of it', async () => {
    for (let i = 0; i < 3; i++) await as(s.org.owner.jwt).post('/api/projects', { name: `p${i}` }).expect(201);
    await entries('action=project.created', 4);
    const first = await as(s.org.owner.jwt).get('/api/audit-log?action=project.created&limit=2').expect(200);
    expect(first.body.entries).toHaveLength(2);
    const cursor = first.headers['x-next-cursor'];
    expect(cursor).toEqual(expect.any(String));
    const second = await as(s.org.owner.jwt).get(`/api/audit-log?action=project.created&limit=2&cursor=${cursor}`).expect(200);
    expect(second.body.entries).toHaveLength(2);
    expect(second.body.entries.map((e: { id: string }) => e.id)).not.toContain(first.body.entries[1].id);
    const other = await seedOrganization(s.env);
    expect((await as(other.owner.jwt).get('/api/audit-log').expect(200)).body).toEqual({ entries: [] });
    expect((await as(other.owner.jwt).get('/api/audit-log/verify').expect(200)).body).toEqual({ valid: true, entries: 0, firstBrokenId: null });
  });

  it('exports CSV with a header and formula-safe cells', async () => {
    await as(s.org.owner.jwt).post('/api/projects', { name: '=HYPERLINK("x")' }).expect(201);
    await entries('action=project.created', 5);
    const res = await as(s.org.owner.jwt).get('/api/audit-log/export?action=project.created').expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"');
    const lines = res.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,createdAt,actorType,actorId,actorName,action,targetType,targetId,changes,ip,userAgent,requestId');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain('project.created');
    expect(res.text).not.toMatch(/,=HYPERLINK/);
  });

  it('verification names a row altered in the database', async () => {
    expect((await as(s.org.owner.jwt).get('/api/audit-log/verify').expect(200)).body).toMatchObject({ valid: true, firstBrokenId: null });
    const victim = await s.env.prisma.auditEntry.findFirstOrThrow({ where: { organizationId: s.org.organization.id, action: 'member.role_changed' } });
    await s.env.prisma.$executeRawUnsafe(`UPDATE audit_entries SET changes = '{"role":{"from":"MEMBER","to":"OWNER"}}' WHERE id = $1::uuid`, victim.id);
    const res = await as(s.org.owner.jwt).get('/api/audit-log/verify').expect(200);
    expect(res.body).toEqual({ valid: false, entries: expect.any(Number), firstBrokenId: victim.id });
  });

  it.each([
    ['an unknown action', 'action=link.exploded', { action: 'Must be a known action' }],
    ['a bad date', 'from=yesterday', { from: 'Must be an ISO 8601 date' }],
    ['a limit over 200', 'limit=500', { limit: 'Must be between 1 and 200' }],
    ['a forged cursor', 'cursor=bm9wZQ', { cursor: 'Must be a cursor from a previous X-Next-Cursor header' }],
  ])('refuses %s with 400', async (_label, query, validation) => {
    const res = await as(s.org.owner.jwt).get(`/api/audit-log?${query}`).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
  });
});
