import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { unlinkable } from '@dl/auth';
import { addMember, authHeader, createTestEnv, outboxMails, RunningApp, SEED_PASSWORD, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TOKEN = /^dli_[0-9a-f]{48}$/;
const invalid = { error: 'Bad Request', message: 'Invalid or expired invitation', statusCode: 400 };
const notFound = { error: 'Not Found', message: 'Invitation not found', statusCode: 404 };
const forbidden = { error: 'Forbidden', message: 'Your role does not allow this action', statusCode: 403 };
const MEMBERS = '/api/organization/members';
const INVITATIONS = '/api/organization/invitations';

function decode(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());
}

describe('invitations (decisions §14)', () => {
  let env: TestEnv;
  let server: RunningApp;
  let outbox: string;
  let n = 0;
  const email = () => `invitee${++n}-${Date.now()}@example.test`;

  beforeAll(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'dl-invite-outbox-'));
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', MAIL_OUTBOX_DIR: outbox });
    server = await startApp(createApiApp, env.config);
  });
  afterAll(async () => {
    await server?.close();
    await env?.teardown();
    await rm(outbox, { recursive: true, force: true });
  });

  const invite = (jwt: string, body: object) => request(server.url).post(MEMBERS).set(authHeader(jwt)).send(body);
  const accept = (body: object) => request(server.url).post('/auth/accept-invite').send(body);
  const list = (jwt: string) => request(server.url).get(INVITATIONS).set(authHeader(jwt));
  const revoke = (jwt: string, id: string) => request(server.url).delete(`${INVITATIONS}/${id}`).set(authHeader(jwt));

  it('invites an unknown email: the token is shown once, emailed, and only its hash is stored', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const before = Date.now();
    const res = await invite(org.owner.jwt, { email: address.toUpperCase(), role: 'MEMBER' }).expect(201);
    expect(res.body).toEqual({
      invitationId: expect.any(String),
      email: address,
      role: 'MEMBER',
      expiresAt: expect.stringMatching(ISO),
      inviteToken: expect.stringMatching(TOKEN),
    });
    const expires = Date.parse(res.body.expiresAt) - before;
    expect(expires).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(7 * 86_400_000 + 60_000);

    const row = await env.prisma.invitation.findUniqueOrThrow({ where: { id: res.body.invitationId } });
    expect(row.tokenHash).toBe(createHash('sha256').update(res.body.inviteToken).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(res.body.inviteToken);
    expect(await env.prisma.user.count({ where: { email: address } })).toBe(0);

    const mails = await outboxMails(outbox, address);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(res.body.inviteToken);
    expect(mails[0].subject).toMatch(/^You are invited to join /);

    const listed = await list(org.owner.jwt).expect(200);
    expect(listed.body).toEqual({
      invitations: [
        {
          invitationId: res.body.invitationId,
          email: address,
          role: 'MEMBER',
          expiresAt: res.body.expiresAt,
          createdAt: expect.stringMatching(ISO),
          invitedBy: { userId: org.owner.user.id, name: org.owner.user.name },
        },
      ],
    });
    expect(JSON.stringify(listed.body)).not.toContain('dli_');
  });

  it('the email names the organization (text, never a link) and who invites; its one link accepts', async () => {
    const org = await seedOrganization(env, { name: 'Pay.example Ltd' });
    const address = email();
    const { inviteToken } = (await invite(org.owner.jwt, { email: address, role: 'ADMIN' }).expect(201)).body;
    const [mail] = await outboxMails(outbox, address);
    const orgText = unlinkable('Pay.example Ltd');
    expect(orgText).not.toBe('Pay.example Ltd');
    expect(mail.subject).toBe(`You are invited to join ${orgText}`);
    expect(mail.text).toContain(`${unlinkable(org.owner.user.name)} invited you to join ${orgText} as an admin.`);
    expect(mail.text).toMatch(/works once, until [A-Z][a-z]+ \d{1,2}, \d{4}, \d{2}:\d{2} UTC\./);
    expect(mail.html).toContain(`invited you to join ${orgText} as an admin.`);
    expect(mail.html).not.toContain('Pay.example');
    expect(mail.html.match(/<a /g)).toHaveLength(1);
    expect(mail.html).toMatch(new RegExp(`<a href="[^"]*/accept-invite#token=${inviteToken}"`));
  });

  it('a new email needs a name and a password: 400 naming each, the token stays usable', async () => {
    const org = await seedOrganization(env);
    const { inviteToken } = (await invite(org.owner.jwt, { email: email(), role: 'MEMBER' }).expect(201)).body;
    const res = await accept({ token: inviteToken }).expect(400);
    expect(res.body).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: { name: 'Required for a new account', password: 'Required for a new account' },
    });
    await accept({ token: inviteToken, name: 'Late', password: 'some-password-1' }).expect(200);
  });

  it('accepting creates the account and membership and answers like login; the token works once', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const { inviteToken } = (await invite(org.owner.jwt, { email: address, role: 'ADMIN' }).expect(201)).body;
    const res = await accept({ token: inviteToken, name: '  New Admin ', password: 'my-own-password-1' }).expect(200);
    expect(res.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    const user = await env.prisma.user.findUniqueOrThrow({ where: { email: address } });
    expect(user.name).toBe('New Admin');
    expect(decode(res.body.accessToken)).toMatchObject({ sub: user.id, org: org.organization.id, role: 'ADMIN' });
    // The session works, with the invited role (an admin lists members).
    const members = await request(server.url).get(MEMBERS).set(authHeader(res.body.accessToken)).expect(200);
    expect(members.body.members.map((m: { email: string; role: string }) => [m.email, m.role])).toContainEqual([address, 'ADMIN']);
    // Their own password logs in.
    await request(server.url).post('/auth/login').send({ email: address, password: 'my-own-password-1' }).expect(200);

    expect((await accept({ token: inviteToken, name: 'Again', password: 'my-own-password-1' }).expect(400)).body).toEqual(invalid);
    expect((await list(org.owner.jwt).expect(200)).body).toEqual({ invitations: [] });
    expect(await env.prisma.membership.count({ where: { organizationId: org.organization.id } })).toBe(2);
  });

  it.each([
    ['an unknown token', 'dli_' + '0'.repeat(48)],
    ['a malformed token', 'dli_nope'],
    ['an API-key-shaped token', 'dl_' + 'a'.repeat(64)],
    ['a verification token', 'dlv_' + '0'.repeat(48)],
    ['a password reset token', 'dlr_' + '0'.repeat(48)],
    ['an empty token', ''],
  ])('%s: 400 Invalid or expired invitation', async (_label, token) => {
    expect((await accept({ token, name: 'X', password: 'some-password-1' }).expect(400)).body).toEqual(invalid);
  });

  it('an expired invitation: 400, nothing created, and it is no longer listed', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const { inviteToken, invitationId } = (await invite(org.owner.jwt, { email: address, role: 'VIEWER' }).expect(201)).body;
    await env.prisma.invitation.update({ where: { id: invitationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await accept({ token: inviteToken, name: 'Late', password: 'some-password-1' }).expect(400)).body).toEqual(invalid);
    expect(await env.prisma.user.count({ where: { email: address } })).toBe(0);
    expect((await list(org.owner.jwt).expect(200)).body).toEqual({ invitations: [] });
  });

  it('revoking stops the token at once; a second revoke or an unknown id is 404', async () => {
    const org = await seedOrganization(env);
    const { inviteToken, invitationId } = (await invite(org.owner.jwt, { email: email(), role: 'VIEWER' }).expect(201)).body;
    await revoke(org.owner.jwt, invitationId).expect(204);
    expect((await accept({ token: inviteToken, name: 'X', password: 'some-password-1' }).expect(400)).body).toEqual(invalid);
    expect((await revoke(org.owner.jwt, invitationId).expect(404)).body).toEqual(notFound);
    expect((await revoke(org.owner.jwt, 'not-a-uuid').expect(404)).body).toEqual(notFound);
  });

  it('inviting the same email again replaces the pending invitation (the old token stops working)', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const first = (await invite(org.owner.jwt, { email: address, role: 'VIEWER' }).expect(201)).body;
    const second = (await invite(org.owner.jwt, { email: address, role: 'MEMBER' }).expect(201)).body;
    expect(second.inviteToken).not.toBe(first.inviteToken);
    expect((await list(org.owner.jwt).expect(200)).body.invitations.map((i: { invitationId: string }) => i.invitationId)).toEqual([second.invitationId]);
    await accept({ token: first.inviteToken, name: 'X', password: 'some-password-1' }).expect(400);
    const ok = await accept({ token: second.inviteToken, name: 'X', password: 'some-password-1' }).expect(200);
    expect(decode(ok.body.accessToken)).toMatchObject({ org: org.organization.id, role: 'MEMBER' });
  });

  // An email with an account (verified or not): apps/api/src/auth/accept-invite.e2e.spec.ts.

  // One refusal over HTTP; every rule of the body: apps/api/src/auth/auth.dto.spec.ts.
  it.each([
    ['no body', {}, { token: 'Must be a string' }],
  ])('accept refuses %s with 400 Validation error', async (_label, body, validation) => {
    const res = await accept(body).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
  });

  it.each(['MEMBER', 'VIEWER'] as const)('%s cannot list or revoke invitations (403)', async (role) => {
    const org = await seedOrganization(env);
    const m = await addMember(env, org.organization.id, role);
    const { invitationId } = (await invite(org.owner.jwt, { email: email(), role: 'VIEWER' }).expect(201)).body;
    expect((await list(m.jwt).expect(403)).body).toEqual(forbidden);
    expect((await revoke(m.jwt, invitationId).expect(403)).body).toEqual(forbidden);
    expect((await list(org.owner.jwt).expect(200)).body.invitations).toHaveLength(1);
  });

  it("another organization's invitation answers 404 and stays", async () => {
    const a = await seedOrganization(env);
    const b = await seedOrganization(env);
    const { invitationId } = (await invite(a.owner.jwt, { email: email(), role: 'VIEWER' }).expect(201)).body;
    expect((await revoke(b.owner.jwt, invitationId).expect(404)).body).toEqual(notFound);
    expect((await list(b.owner.jwt).expect(200)).body).toEqual({ invitations: [] });
    expect((await list(a.owner.jwt).expect(200)).body.invitations).toHaveLength(1);
  });

  it('an admin invites (not owners); the seeded password is never involved', async () => {
    const org = await seedOrganization(env);
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    const res = await invite(admin.jwt, { email: email(), role: 'MEMBER' }).expect(201);
    expect((await list(org.owner.jwt).expect(200)).body.invitations[0].invitedBy).toEqual({ userId: admin.user.id, name: admin.user.name });
    expect(res.body.inviteToken).not.toContain(SEED_PASSWORD);
  });
});
