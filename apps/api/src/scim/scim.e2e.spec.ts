import { createHash } from 'node:crypto';
import request from 'supertest';
import { AuditRecorder } from '@dl/audit';
import { addMember, authHeader, clientAs, SeededOrganization, seedOrganization, useApp } from '@dl/testing';
import { createApiApp } from '../app';

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const SCIM_JSON = 'application/scim+json; charset=utf-8';

describe('SCIM 2.0 (/scim/v2, decisions §25)', () => {
  const s = useApp(createApiApp, { RATE_LIMIT_ENABLED: 'false' }, async (env, _own, server) => {
    const org = await seedOrganization(env, { tier: 'BUSINESS' });
    const other = await seedOrganization(env, { tier: 'BUSINESS' });
    const scimToken = async (o: SeededOrganization) => (await clientAs(server.url, o.owner.jwt).post('/api/organization/scim-tokens').expect(201)).body.token as string;
    return { org, other, token: await scimToken(org), otherToken: await scimToken(other) };
  });

  const scim = (t: string) => ({
    get: (p: string) => request(s.server.url).get(`/scim/v2${p}`).set(authHeader(t)),
    put: (p: string, b: object) => request(s.server.url).put(`/scim/v2${p}`).set(authHeader(t)).set('content-type', 'application/scim+json').send(JSON.stringify(b)),
    post: (p: string, b: object) => request(s.server.url).post(`/scim/v2${p}`).set(authHeader(t)).set('content-type', 'application/scim+json').send(JSON.stringify(b)),
    patch: (p: string, b: object) => request(s.server.url).patch(`/scim/v2${p}`).set(authHeader(t)).set('content-type', 'application/scim+json').send(JSON.stringify(b)),
    delete: (p: string) => request(s.server.url).delete(`/scim/v2${p}`).set(authHeader(t)),
  });

  it('a token is shown once and stored hashed; a missing or revoked one answers 401 in SCIM shape', async () => {
    expect(s.token).toMatch(/^dls_[0-9a-f]{64}$/);
    const row = await s.env.prisma.scimToken.findFirstOrThrow({ where: { organizationId: s.org.organization.id } });
    expect(row.tokenHash).toBe(createHash('sha256').update(s.token).digest('hex'));
    const list = await request(s.server.url).get('/api/organization/scim-tokens').set(authHeader(s.org.owner.jwt)).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(s.token);
    const unauthorized = { schemas: [ERROR], status: '401', detail: 'Missing, invalid or revoked SCIM token' };
    const missing = await request(s.server.url).get('/scim/v2/Users').expect(401);
    expect([missing.headers['content-type'], missing.body]).toEqual([SCIM_JSON, unauthorized]);
    const temp = (await request(s.server.url).post('/api/organization/scim-tokens').set(authHeader(s.org.owner.jwt)).expect(201)).body;
    expect(temp).toEqual({ id: expect.any(String), token: expect.stringMatching(/^dls_[0-9a-f]{64}$/), createdAt: expect.any(String) });
    expect(list.body).toEqual({ tokens: [{ id: row.id, createdAt: row.createdAt.toISOString(), lastUsedAt: null }] });
    await scim(temp.token).get('/Users').expect(200);
    await request(s.server.url).delete(`/api/organization/scim-tokens/${temp.id}`).set(authHeader(s.org.owner.jwt)).expect(204);
    expect((await scim(temp.token).get('/Users').expect(401)).body).toEqual(unauthorized);
    // An Admin or an API key (even the Owner's) cannot make tokens, nor revoke one.
    const admin = await addMember(s.env, s.org.organization.id, 'ADMIN');
    await request(s.server.url).post('/api/organization/scim-tokens').set(authHeader(admin.jwt)).expect(403);
    await request(s.server.url).post('/api/organization/scim-tokens').set(authHeader(s.org.owner.apiKey)).expect(403);
    await request(s.server.url).delete(`/api/organization/scim-tokens/${row.id}`).set(authHeader(admin.jwt)).expect(403);
    // Another organization's token id answers like a missing one.
    await request(s.server.url).delete(`/api/organization/scim-tokens/${row.id}`).set(authHeader(s.other.owner.jwt)).expect(404, { error: 'Not Found', message: 'SCIM token not found', statusCode: 404 });
  });

  it('creates users, lists them paged as the RFC says, filters by userName; malformed filters answer 400 invalidFilter', async () => {
    const ana = await scim(s.token).post('/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'Ana@Example.com', name: { givenName: 'Ana', familyName: 'Lima' } }).expect(201);
    expect(ana.body).toMatchObject({ userName: 'ana@example.com', displayName: 'Ana Lima', active: true, groups: [{ value: 'member' }] });
    await scim(s.token).post('/Users', { userName: 'bo@example.com' }).expect(201);
    const dup = await scim(s.token).post('/Users', { userName: 'ana@example.com' }).expect(409);
    expect(dup.body).toEqual({ schemas: [ERROR], status: '409', scimType: 'uniqueness', detail: 'User ana@example.com already exists' });

    const all = await scim(s.token).get('/Users').expect(200);
    expect(all.headers['content-type']).toBe(SCIM_JSON);
    expect(all.body.totalResults).toBeGreaterThanOrEqual(4);
    // count=0 answers the total alone; a startIndex below 1 is 1; past the end, an empty page.
    expect((await scim(s.token).get('/Users?count=0').expect(200)).body).toMatchObject({ totalResults: all.body.totalResults, itemsPerPage: 0, Resources: [] });
    expect((await scim(s.token).get('/Users?startIndex=0&count=1').expect(200)).body).toMatchObject({ startIndex: 1, Resources: [{ id: all.body.Resources[0].id }] });
    expect((await scim(s.token).get(`/Users?startIndex=${all.body.totalResults + 1}`).expect(200)).body).toMatchObject({ totalResults: all.body.totalResults, itemsPerPage: 0 });
    expect((await scim(s.token).get('/Users?count=ten').expect(400)).body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const page = await scim(s.token).get('/Users?startIndex=2&count=1').expect(200);
    expect(page.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: all.body.totalResults, startIndex: 2, itemsPerPage: 1 });
    expect(page.body.Resources[0].id).toBe(all.body.Resources[1].id);
    const found = await scim(s.token).get(`/Users?filter=${encodeURIComponent('userName eq "ANA@example.com"')}`).expect(200);
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(ana.body.id);
    const bad = await scim(s.token).get(`/Users?filter=${encodeURIComponent('userName sw "a')}`).expect(400);
    expect(bad.body).toEqual({ schemas: [ERROR], status: '400', scimType: 'invalidFilter', detail: expect.any(String) });
  });

  it('PUT and PATCH change the name; userName and other attributes stay; a malformed operation answers 400 in SCIM shape', async () => {
    const user = (await scim(s.token).post('/Users', { userName: 'cy@example.com' }).expect(201)).body;
    const put = await scim(s.token).put(`/Users/${user.id}`, { userName: 'cy@example.com', name: { givenName: 'Cy', familyName: 'Young' }, active: true }).expect(200);
    expect(put.body).toMatchObject({ id: user.id, userName: 'cy@example.com', displayName: 'Cy Young', active: true });
    const ops = [
      { op: 'replace', path: 'displayName', value: 'Cyrus Young' },
      { op: 'replace', path: 'userName', value: 'other@example.com' },
    ];
    const patched = await scim(s.token).patch(`/Users/${user.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: ops }).expect(200);
    expect(patched.body).toMatchObject({ displayName: 'Cyrus Young', userName: 'cy@example.com' });
    const byName = await scim(s.token).patch(`/Users/${user.id}`, { Operations: [{ op: 'Replace', value: { name: { givenName: 'C.', familyName: 'Y.' } } }] }).expect(200);
    expect(byName.body.displayName).toBe('C. Y.');
    expect(await s.env.prisma.user.findUniqueOrThrow({ where: { id: user.id }, select: { email: true, name: true } })).toEqual({ email: 'cy@example.com', name: 'C. Y.' });
    const move = await scim(s.token).patch(`/Users/${user.id}`, { Operations: [{ op: 'move', path: 'active' }] }).expect(400);
    expect(move.body).toEqual({ schemas: [ERROR], status: '400', scimType: 'invalidSyntax', detail: 'op must be add, replace or remove' });
    const maybe = await scim(s.token).patch(`/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] }).expect(400);
    expect(maybe.body).toEqual({ schemas: [ERROR], status: '400', scimType: 'invalidValue', detail: 'active must be a boolean' });
    await scim(s.token).patch(`/Users/${user.id}`, { Operations: 'replace' }).expect(400);
  });

  it("another organization's token sees none of it", async () => {
    const ana = (await scim(s.token).get(`/Users?filter=${encodeURIComponent('userName eq "ana@example.com"')}`)).body.Resources[0];
    expect((await scim(s.otherToken).get(`/Users?filter=${encodeURIComponent('userName eq "ana@example.com"')}`).expect(200)).body.totalResults).toBe(0);
    expect((await scim(s.otherToken).get(`/Users/${ana.id}`).expect(404)).body).toMatchObject({ schemas: [ERROR], status: '404' });
    await scim(s.otherToken).patch(`/Users/${ana.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }).expect(404);
    await scim(s.otherToken).delete(`/Users/${ana.id}`).expect(404);
    const group = await scim(s.otherToken).patch('/Groups/admin', { Operations: [{ op: 'add', path: 'members', value: [{ value: ana.id }] }] }).expect(400);
    expect(group.body.scimType).toBe('noTarget');
    expect(await s.env.prisma.membership.findFirst({ where: { organizationId: s.org.organization.id, userId: ana.id } })).toMatchObject({ role: 'MEMBER' });
  });

  it('groups are the four roles; adding a member to one sets the role', async () => {
    const member = await addMember(s.env, s.org.organization.id, 'MEMBER');
    const groups = await scim(s.token).get('/Groups').expect(200);
    expect(groups.body.Resources.map((g: { id: string }) => g.id)).toEqual(['owner', 'admin', 'member', 'viewer']);
    const admin = await scim(s.token).patch('/Groups/admin', { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'add', path: 'members', value: [{ value: member.user.id }] }] }).expect(200);
    expect(admin.body.members.map((m: { value: string }) => m.value)).toContain(member.user.id);
    expect((await s.env.prisma.membership.findFirstOrThrow({ where: { organizationId: s.org.organization.id, userId: member.user.id } })).role).toBe('ADMIN');
    await scim(s.token).patch('/Groups/admin', { Operations: [{ op: 'remove', path: `members[value eq "${member.user.id}"]` }] }).expect(200);
    expect((await s.env.prisma.membership.findFirstOrThrow({ where: { organizationId: s.org.organization.id, userId: member.user.id } })).role).toBe('MEMBER');
    const last = await scim(s.token).patch('/Groups/owner', { Operations: [{ op: 'remove', path: `members[value eq "${s.org.owner.user.id}"]` }] }).expect(409);
    expect(last.body.scimType).toBe('mutability');
  });

  it('active: false removes the membership and ends the member’s session and keys within a second', async () => {
    const member = await addMember(s.env, s.org.organization.id, 'MEMBER');
    await request(s.server.url).get('/api/links').set(authHeader(member.jwt)).expect(200);
    await request(s.server.url).get('/api/links').set(authHeader(member.apiKey)).expect(200);
    const res = await scim(s.token).patch(`/Users/${member.user.id}`, { Operations: [{ op: 'replace', value: { active: 'False' } }] }).expect(200);
    expect(res.body.active).toBe(false);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 1000) {
      status = (await request(s.server.url).get('/api/links').set(authHeader(member.jwt))).status;
    }
    expect(status).toBe(401);
    await request(s.server.url).get('/api/links').set(authHeader(member.apiKey)).expect(401);
    expect(await s.env.prisma.membership.findFirst({ where: { organizationId: s.org.organization.id, userId: member.user.id } })).toBeNull();
    await scim(s.token).get(`/Users/${member.user.id}`).expect(404);
    // DELETE does the same.
    const bo = (await scim(s.token).get(`/Users?filter=${encodeURIComponent('userName eq "bo@example.com"')}`)).body.Resources[0];
    await scim(s.token).delete(`/Users/${bo.id}`).expect(204);
    await scim(s.token).get(`/Users/${bo.id}`).expect(404);

    // The audit log has each change; a SCIM token is no user or key, so the actor is the system.
    await s.server.app.get(AuditRecorder).flush();
    const logged = await s.env.prisma.auditEntry.findMany({ where: { organizationId: s.org.organization.id, action: { startsWith: 'scim' } }, orderBy: { seq: 'asc' } });
    const of = (targetId: string) => logged.filter((e) => e.targetId === targetId).map((e) => [e.action, e.actorType]);
    expect(of(bo.id)).toEqual([['scim.user_provisioned', 'system'], ['scim.user_deprovisioned', 'system']]);
    expect(of(member.user.id)).toEqual([['scim.user_deprovisioned', 'system']]);
    expect(logged.map((e) => e.action)).toEqual(expect.arrayContaining(['scim_token.created', 'scim_token.revoked', 'scim.user_updated']));
  });
});
