import request from 'supertest';
import { addMember, appEnv, authHeader, closeAll, RunningApp, SEED_PASSWORD, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const notFound = { error: 'Not Found', message: 'Member not found', statusCode: 404 };
const forbidden = { error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 };
const lastOwner = { error: 'Conflict', message: 'An organization must keep at least one owner', statusCode: 409 };
const PATH = '/api/organization/members';

describe('members (/api/organization/members)', () => {
  let env: TestEnv, server: RunningApp;
  let n = 0;
  const email = () => `new${++n}-${Date.now()}@example.test`;

  beforeAll(async () => ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false' })));
  afterAll(() => closeAll(server, env));

  const as = (token: string) => ({
    get: (p = PATH) => request(server.url).get(p).set(authHeader(token)),
    post: (b: object) => request(server.url).post(PATH).set(authHeader(token)).send(b),
    patch: (id: string, b: object) => request(server.url).patch(`${PATH}/${id}`).set(authHeader(token)).send(b),
    delete: (id: string) => request(server.url).delete(`${PATH}/${id}`).set(authHeader(token)),
  });
  const memberships = (organizationId: string) => env.prisma.membership.count({ where: { organizationId } });

  it('lists members oldest first with their role', async () => {
    const org = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    const res = await as(org.owner.jwt).get().expect(200);
    expect(res.body).toEqual({
      members: [
        { userId: org.owner.user.id, email: org.owner.user.email, name: org.owner.user.name, role: 'OWNER', createdAt: expect.stringMatching(ISO) },
        { userId: admin.user.id, email: admin.user.email, name: admin.user.name, role: 'ADMIN', createdAt: expect.stringMatching(ISO) },
      ],
    });
    await as(admin.jwt).get().expect(200);
  });

  it.each(['MEMBER', 'VIEWER'] as const)('%s cannot use any member endpoint (403)', async (role) => {
    const org = await seedOrganization(env);
    const m = await addMember(env, org.organization.id, role);
    expect((await as(m.jwt).get().expect(403)).body).toEqual(forbidden);
    expect((await as(m.jwt).post({ email: email(), role: 'VIEWER' }).expect(403)).body).toEqual(forbidden);
    expect((await as(m.jwt).patch(org.owner.user.id, { role: 'VIEWER' }).expect(403)).body).toEqual(forbidden);
    expect((await as(m.jwt).delete(org.owner.user.id).expect(403)).body).toEqual(forbidden);
    expect(await memberships(org.organization.id)).toBe(2);
  });

  describe('adding', () => {
    it('invites an existing account exactly like an unknown email: nothing is added and nothing disclosed (decisions §20)', async () => {
      const org = await seedOrganization(env);
      const other = await seedOrganization(env);
      const known = await as(org.owner.jwt).post({ email: other.owner.user.email, role: 'VIEWER' }).expect(201);
      const unknown = await as(org.owner.jwt).post({ email: email(), role: 'VIEWER' }).expect(201);
      const shape = { invitationId: expect.any(String), email: expect.any(String), role: 'VIEWER', expiresAt: expect.stringMatching(ISO), inviteToken: expect.stringMatching(/^dli_[0-9a-f]{48}$/) };
      expect(known.body).toEqual({ ...shape, email: other.owner.user.email });
      expect(unknown.body).toEqual(shape);
      expect(Object.keys(known.body)).toEqual(Object.keys(unknown.body));
      expect(await memberships(org.organization.id)).toBe(1);
      // The account cannot sign in to the organization before accepting.
      const login = await request(server.url)
        .post('/auth/login')
        .send({ email: other.owner.user.email, password: SEED_PASSWORD, organizationId: org.organization.id })
        .expect(401);
      expect(login.body).toEqual({ error: 'Unauthorized', message: 'Invalid email or password', statusCode: 401 });
      // A current member is 409 (the inviter can list the members anyway).
      const member = await addMember(env, org.organization.id, 'MEMBER');
      const again = await as(org.owner.jwt).post({ email: member.user.email.toUpperCase(), role: 'ADMIN' }).expect(409);
      expect(again.body).toEqual({ error: 'Conflict', message: 'This user is already a member of the organization', statusCode: 409 });
    });

    it.each([
      ['no body', {}, { email: 'Must be a valid email address', role: 'Must be one of OWNER, ADMIN, MEMBER, VIEWER' }],
      ['a bad role', { email: 'x@example.test', role: 'KING' }, { role: 'Must be one of OWNER, ADMIN, MEMBER, VIEWER' }],
      ['a bad email', { email: 'nope', role: 'VIEWER' }, { email: 'Must be a valid email address' }],
      ['a password (decisions §14)', { email: 'x@example.test', role: 'VIEWER', password: 'chosen-by-admin-1' }, { password: 'Not accepted: members are invited and choose their own password' }],
      ['an empty password', { email: 'x@example.test', role: 'VIEWER', password: '' }, { password: 'Not accepted: members are invited and choose their own password' }],
      ['a name', { email: 'x@example.test', role: 'VIEWER', name: 'X' }, { name: 'Unknown field' }],
      ['an unknown field', { email: 'x@example.test', role: 'VIEWER', organizationId: 'x' }, { organizationId: 'Unknown field' }],
    ])('refuses %s with 400, writing nothing', async (_label, body, validation) => {
      const org = await seedOrganization(env);
      const users = await env.prisma.user.count();
      const res = await as(org.owner.jwt).post(body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
      expect(await memberships(org.organization.id)).toBe(1);
      expect(await env.prisma.user.count()).toBe(users);
      expect(await env.prisma.invitation.count({ where: { organizationId: org.organization.id } })).toBe(0);
    });

    it('the password of an existing account is refused too: nobody sets it for them', async () => {
      const org = await seedOrganization(env);
      const other = await seedOrganization(env);
      const res = await as(org.owner.jwt).post({ email: other.owner.user.email, role: 'VIEWER', password: 'x' }).expect(400);
      expect(res.body.validation).toEqual({ password: 'Not accepted: members are invited and choose their own password' });
      expect(await memberships(org.organization.id)).toBe(1);
    });

    it('only an owner can add or invite an owner', async () => {
      const org = await seedOrganization(env);
      const other = await seedOrganization(env);
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      expect((await as(admin.jwt).post({ email: email(), role: 'OWNER' }).expect(403)).body).toEqual(forbidden);
      expect((await as(admin.jwt).post({ email: other.owner.user.email, role: 'OWNER' }).expect(403)).body).toEqual(forbidden);
      expect(await env.prisma.invitation.count({ where: { organizationId: org.organization.id } })).toBe(0);
      await as(admin.jwt).post({ email: email(), role: 'ADMIN' }).expect(201);
      await as(org.owner.jwt).post({ email: email(), role: 'OWNER' }).expect(201);
      await as(org.owner.jwt).post({ email: other.owner.user.email, role: 'OWNER' }).expect(201);
    });
  });

  describe('changing roles', () => {
    let org: SeededOrganization;
    beforeEach(async () => {
      org = await seedOrganization(env);
    });

    it('an admin changes non-owner roles, and the change applies on the next request', async () => {
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      const member = await addMember(env, org.organization.id, 'MEMBER');
      const res = await as(admin.jwt).patch(member.user.id, { role: 'ADMIN' }).expect(200);
      expect(res.body).toMatchObject({ userId: member.user.id, role: 'ADMIN' });
      await as(member.jwt).get().expect(200);
      await as(admin.jwt).patch(member.user.id, { role: 'VIEWER' }).expect(200);
      expect((await as(member.jwt).get().expect(403)).body).toEqual(forbidden);
    });

    it('an admin can neither promote to nor demote an owner', async () => {
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      const member = await addMember(env, org.organization.id, 'MEMBER');
      expect((await as(admin.jwt).patch(member.user.id, { role: 'OWNER' }).expect(403)).body).toEqual(forbidden);
      expect((await as(admin.jwt).patch(org.owner.user.id, { role: 'ADMIN' }).expect(403)).body).toEqual(forbidden);
      expect((await as(admin.jwt).delete(org.owner.user.id).expect(403)).body).toEqual(forbidden);
      const owner = await env.prisma.membership.findFirstOrThrow({ where: { organizationId: org.organization.id, userId: org.owner.user.id } });
      expect(owner.role).toBe('OWNER');
    });

    it('an owner promotes and demotes owners, but the last owner stays', async () => {
      expect((await as(org.owner.jwt).patch(org.owner.user.id, { role: 'ADMIN' }).expect(409)).body).toEqual(lastOwner);
      expect((await as(org.owner.jwt).delete(org.owner.user.id).expect(409)).body).toEqual(lastOwner);
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      await as(org.owner.jwt).patch(admin.user.id, { role: 'OWNER' }).expect(200);
      await as(admin.jwt).patch(org.owner.user.id, { role: 'MEMBER' }).expect(200);
      expect((await as(admin.jwt).patch(admin.user.id, { role: 'MEMBER' }).expect(409)).body).toEqual(lastOwner);
    });

    it.each([
      ['no role', {}],
      ['a bad role', { role: 'owner ' }],
      ['an unknown field', { role: 'ADMIN', name: 'x' }],
    ])('refuses %s with 400', async (_label, body) => {
      const member = await addMember(env, org.organization.id, 'MEMBER');
      const res = await as(org.owner.jwt).patch(member.user.id, body).expect(400);
      expect(res.body).toMatchObject({ error: 'Bad Request', message: 'Validation error', statusCode: 400 });
      const row = await env.prisma.membership.findFirstOrThrow({ where: { organizationId: org.organization.id, userId: member.user.id } });
      expect(row.role).toBe('MEMBER');
    });
  });

  describe('removing', () => {
    it('removes the member and revokes their keys at once', async () => {
      const org = await seedOrganization(env);
      const member = await addMember(env, org.organization.id, 'MEMBER');
      await request(server.url).get('/api/usage').set(authHeader(member.apiKey)).expect(200);
      await as(org.owner.jwt).delete(member.user.id).expect(204);
      const byKey = await request(server.url).get('/api/usage').set(authHeader(member.apiKey)).expect(401);
      expect(byKey.body.message).toBe('API key has been deleted or revoked');
      const bySession = await request(server.url).get('/api/usage').set(authHeader(member.jwt)).expect(401);
      expect(bySession.body.message).toBe('Invalid or expired session');
      const keys = await env.prisma.apiKey.findMany({ where: { userId: member.user.id } });
      expect(keys.every((k) => k.revokedAt !== null)).toBe(true);
      expect(await memberships(org.organization.id)).toBe(1);
      // The account survives (it may belong to other organizations).
      expect(await env.prisma.user.count({ where: { id: member.user.id } })).toBe(1);
      expect((await as(org.owner.jwt).delete(member.user.id).expect(404)).body).toEqual(notFound);
    });
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])('unknown userId %s: 404 Member not found', async (id) => {
    const org = await seedOrganization(env);
    expect((await as(org.owner.jwt).patch(id, { role: 'VIEWER' }).expect(404)).body).toEqual(notFound);
    expect((await as(org.owner.jwt).delete(id).expect(404)).body).toEqual(notFound);
  });

  it("another organization's member answers 404 like a missing one", async () => {
    const a = await seedOrganization(env);
    const b = await seedOrganization(env);
    const aMember = await addMember(env, a.organization.id, 'MEMBER');
    expect((await as(b.owner.jwt).patch(aMember.user.id, { role: 'VIEWER' }).expect(404)).body).toEqual(notFound);
    expect((await as(b.owner.jwt).delete(aMember.user.id).expect(404)).body).toEqual(notFound);
    expect((await as(b.owner.jwt).get().expect(200)).body.members).toHaveLength(1);
    await request(server.url).get('/api/usage').set(authHeader(aMember.apiKey)).expect(200);
  });
});
