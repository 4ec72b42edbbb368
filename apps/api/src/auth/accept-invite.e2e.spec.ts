import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { totpCode } from '@dl/auth';
import { authHeader, createTestEnv, nthOutboxMail, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const SIGN_IN = { error: 'Unauthorized', message: 'Sign in as the invited email to accept', statusCode: 401 };
const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, string>;

/** POST /auth/accept-invite by the invited email's account (decisions §20), and the pre-hijack scenario. */
describe('accepting an invitation', () => {
  let env: TestEnv;
  let server: RunningApp;
  let outbox: string;
  let n = 0;
  const email = () => `invited${++n}-${Date.now()}@victim.test`;

  beforeAll(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'dl-accept-outbox-'));
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', MAIL_OUTBOX_DIR: outbox });
    server = await startApp(createApiApp, env.config);
  });
  afterAll(async () => {
    await server?.close();
    await env?.teardown();
    await rm(outbox, { recursive: true, force: true });
  });

  const invite = async (jwt: string, address: string, role = 'MEMBER') =>
    (await request(server.url).post('/api/organization/members').set(authHeader(jwt)).send({ email: address, role }).expect(201)).body.inviteToken as string;
  const accept = (body: object, jwt?: string) => {
    const req = request(server.url).post('/auth/accept-invite');
    return (jwt ? req.set(authHeader(jwt)) : req).send(body);
  };
  const signup = (address: string, password = 'their-own-password') =>
    request(server.url).post('/auth/signup').send({ email: address, password, name: 'Self', organizationName: 'Own Org' }).expect(201);
  const verify = (address: string) => env.prisma.user.update({ where: { email: address }, data: { emailVerifiedAt: new Date() } });

  it('a verified account joins with its own session, and only with it', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const own = await signup(address);
    await verify(address);
    const token = await invite(org.owner.jwt, address, 'ADMIN');
    // Without a session, with a password, with another account's session, with an API key: 401, the token stays.
    expect((await accept({ token }).expect(401)).body).toEqual(SIGN_IN);
    expect((await accept({ token, password: 'their-own-password' }).expect(401)).body).toEqual(SIGN_IN);
    const stranger = await seedOrganization(env);
    expect((await accept({ token }, stranger.owner.jwt).expect(401)).body).toEqual(SIGN_IN);
    expect((await accept({ token }, stranger.owner.apiKey).expect(401)).body).toEqual(SIGN_IN);
    expect((await accept({ token }, 'not.a.jwt').expect(401)).body).toEqual(SIGN_IN);
    expect(await env.prisma.membership.count({ where: { organizationId: org.organization.id } })).toBe(1);

    const ok = await accept({ token, name: 'Ignored' }, own.body.accessToken).expect(200);
    expect(decode(ok.body.accessToken)).toMatchObject({ sub: own.body.user.id, org: org.organization.id, role: 'ADMIN' });
    const account = await env.prisma.user.findUniqueOrThrow({ where: { email: address } });
    expect(account.name).toBe('Self');
    // Its own organization and session are untouched.
    await request(server.url).get('/api/usage').set(authHeader(own.body.accessToken)).expect(200);
    expect((await accept({ token }, own.body.accessToken).expect(400)).body).toEqual({ error: 'Bad Request', message: 'Invalid or expired invitation', statusCode: 400 });
  });

  it('an unverified account needs a password to be claimed (400 naming it)', async () => {
    const org = await seedOrganization(env);
    const address = email();
    await signup(address);
    const token = await invite(org.owner.jwt, address);
    const res = await accept({ token, name: 'X' }).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { password: 'Required to claim this account' } });
  });

  it('pre-hijack: the attacker signs up first, the victim organization invites, the invitee claims: the attacker is out', async () => {
    const victimOrg = await seedOrganization(env, { name: 'Victim Corp' });
    const alice = email();
    // The attacker registers Alice's address with a password of their choosing, makes a key and
    // turns on two-factor authentication with an authenticator of their own.
    const attacker = await signup(alice, 'attacker-password');
    const attackerCookie = ((attacker.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('dl_refresh=')) ?? '').split(';')[0];
    const key = await request(server.url).post('/api/keys').set(authHeader(attacker.body.accessToken)).send({ name: 'persistence' }).expect(201);
    const otherLogin = await request(server.url).post('/auth/login').send({ email: alice, password: 'attacker-password' }).expect(200);
    const setup = await request(server.url).post('/auth/2fa/setup').set(authHeader(attacker.body.accessToken)).expect(200);
    await request(server.url).post('/auth/2fa/enable').set(authHeader(attacker.body.accessToken)).send({ code: totpCode(setup.body.secret, Date.now()) }).expect(200);
    const pending = await request(server.url).post('/auth/login').send({ email: alice, password: 'attacker-password' }).expect(200);
    expect(pending.body).toEqual({ twoFactorRequired: true, challengeToken: expect.stringMatching(/^dlc_/) });

    // Victim Corp invites Alice: nothing is added at once, the attacker gets no access to it.
    const inviteToken = await invite(victimOrg.owner.jwt, alice, 'OWNER');
    await request(server.url).post('/auth/login').send({ email: alice, password: 'attacker-password', organizationId: victimOrg.organization.id }).expect(401);
    expect(await env.prisma.membership.count({ where: { organizationId: victimOrg.organization.id } })).toBe(1);

    // The real Alice follows the invitation emailed to her (the real mailer's outbox) and chooses her password.
    const invitation = await nthOutboxMail(outbox, alice, 2); // 1: the verification email of the attacker's signup
    expect(invitation.subject).toBe('You are invited to join Victim Corp');
    const token = /dli_[0-9a-f]{48}/.exec(invitation.text)![0];
    expect(token).toBe(inviteToken);
    const claimed = await accept({ token, name: 'Alice', password: 'alices-own-password' }).expect(200);
    expect(decode(claimed.body.accessToken)).toMatchObject({ sub: attacker.body.user.id, org: victimOrg.organization.id, role: 'OWNER' });

    // Every credential the attacker held stops: sessions (access tokens and the refresh cookie) and API keys.
    const invalidSession = { error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 };
    expect((await request(server.url).get('/api/usage').set(authHeader(attacker.body.accessToken)).expect(401)).body).toEqual(invalidSession);
    await request(server.url).get('/api/usage').set(authHeader(otherLogin.body.accessToken)).expect(401);
    await request(server.url).post('/auth/refresh').set('Cookie', attackerCookie).expect(401);
    const keyAnswer = await request(server.url).get('/api/usage').set(authHeader(key.body.key)).expect(401);
    expect(keyAnswer.body).toEqual({ error: 'Unauthorized', message: 'API key has been deleted or revoked', statusCode: 401 });
    // The challenge of the attacker's last login, with a fresh code of their authenticator: the factor went with the claim.
    const late = await request(server.url)
      .post('/auth/login/2fa')
      .send({ challengeToken: pending.body.challengeToken, code: totpCode(setup.body.secret, Date.now() + 30_000) })
      .expect(401);
    expect(late.body).toEqual({ error: 'Unauthorized', message: 'Invalid or expired challenge', statusCode: 401 });
    // The attacker's password no longer signs in; Alice's does, verified, without the attacker's second factor.
    const refused = await request(server.url).post('/auth/login').send({ email: alice, password: 'attacker-password' }).expect(401);
    expect(refused.body).toEqual({ error: 'Unauthorized', message: 'Invalid email or password', statusCode: 401 });
    const own = await request(server.url).post('/auth/login').send({ email: alice, password: 'alices-own-password', organizationId: victimOrg.organization.id }).expect(200);
    expect(own.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    const me = await request(server.url).get('/auth/me').set(authHeader(claimed.body.accessToken)).expect(200);
    // The name is Alice's own, not the one the attacker signed up with.
    expect(me.body.user).toMatchObject({ name: 'Alice', emailVerified: true, twoFactorEnabled: false });
    expect(me.body.role).toBe('OWNER');
    expect(await env.prisma.recoveryCode.count({ where: { userId: attacker.body.user.id } })).toBe(0);
  });

  it('an unknown email: a verified account with the name and password given', async () => {
    const org = await seedOrganization(env);
    const address = email();
    const token = await invite(org.owner.jwt, address, 'VIEWER');
    const ok = await accept({ token, name: 'New', password: 'new-password-1' }).expect(200);
    const user = await env.prisma.user.findUniqueOrThrow({ where: { email: address } });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(decode(ok.body.accessToken)).toMatchObject({ sub: user.id, org: org.organization.id, role: 'VIEWER' });
  });
});
