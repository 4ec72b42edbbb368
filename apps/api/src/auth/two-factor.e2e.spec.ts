import request from 'supertest';
import { hashChallengeToken, totpCode } from '@dl/auth';
import { RedisService } from '@dl/platform/redis';
import { addMember, authHeader, createTestEnv, RunningApp, seedOrganization, SEED_PASSWORD, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const STEP = 30_000;
const unauthorized = (message: string) => ({ error: 'Unauthorized', message, statusCode: 401 });

describe('two-factor authentication (decisions §20)', () => {
  let env: TestEnv;
  let server: RunningApp;
  const http = () => request(server.url);

  beforeAll(async () => {
    env = await createTestEnv();
    server = await startApp(createApiApp, env.config);
  });
  afterAll(async () => {
    await server?.close();
    await env?.teardown();
  });

  /** A seeded owner with 2FA on: its secret, recovery codes and the step its enabling code used. */
  async function withTwoFactor() {
    const org = await seedOrganization(env);
    const setup = await http().post('/auth/2fa/setup').set(authHeader(org.owner.jwt)).expect(200);
    const enabledAt = Date.now();
    const enabled = await http()
      .post('/auth/2fa/enable')
      .set(authHeader(org.owner.jwt))
      .send({ code: totpCode(setup.body.secret, enabledAt) })
      .expect(200);
    return { org, enabledAt, secret: setup.body.secret as string, recoveryCodes: enabled.body.recoveryCodes as string[] };
  }
  const login = (email: string) => http().post('/auth/login').send({ email, password: SEED_PASSWORD });

  it('set-up answers a secret, its otpauth URL and an SVG QR code; enable answers ten recovery codes once, stored hashed', async () => {
    const org = await seedOrganization(env);
    const setup = await http().post('/auth/2fa/setup').set(authHeader(org.owner.jwt)).expect(200);
    expect(setup.body).toEqual({ secret: expect.stringMatching(/^[A-Z2-7]{32}$/), otpauthUrl: expect.any(String), qrSvg: expect.any(String) });
    expect(setup.body.otpauthUrl).toContain(`secret=${setup.body.secret}`);
    expect(setup.body.otpauthUrl).toContain(encodeURIComponent(org.owner.user.email));
    expect(setup.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // Not on until confirmed: the login still answers a session.
    expect((await login(org.owner.user.email).expect(200)).body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });

    const wrong = await http().post('/auth/2fa/enable').set(authHeader(org.owner.jwt)).send({ code: '000000' });
    if (totpCode(setup.body.secret, Date.now()) !== '000000') expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(unauthorized('Invalid code'));

    const enabled = await http().post('/auth/2fa/enable').set(authHeader(org.owner.jwt)).send({ code: totpCode(setup.body.secret, Date.now()) }).expect(200);
    expect(enabled.body).toEqual({ recoveryCodes: expect.any(Array) });
    expect(enabled.body.recoveryCodes).toHaveLength(10);
    const rows = await env.prisma.recoveryCode.findMany({ where: { userId: org.owner.user.id } });
    expect(rows).toHaveLength(10);
    for (const code of enabled.body.recoveryCodes) expect(rows.some((r) => r.codeHash.includes(code))).toBe(false);

    const again = await http().post('/auth/2fa/setup').set(authHeader(org.owner.jwt)).expect(409);
    expect(again.body).toEqual({ error: 'Conflict', message: 'Two-factor authentication is already enabled', statusCode: 409 });
  });

  it('enable before set-up → 400; an API key → 403 dashboard only', async () => {
    const org = await seedOrganization(env);
    const res = await http().post('/auth/2fa/enable').set(authHeader(org.owner.jwt)).send({ code: '123456' }).expect(400);
    expect(res.body).toEqual({ error: 'Bad Request', message: 'Start two-factor set-up first (POST /auth/2fa/setup)', statusCode: 400 });
    const key = await http().post('/auth/2fa/setup').set(authHeader(org.owner.apiKey)).expect(403);
    expect(key.body).toEqual({ error: 'Forbidden', message: 'This endpoint requires a dashboard session', statusCode: 403 });
  });

  it('login → challenge (no cookie) → code → a session with the refresh cookie', async () => {
    const { org, secret, enabledAt } = await withTwoFactor();
    const first = await login(org.owner.user.email).expect(200);
    expect(first.body).toEqual({ twoFactorRequired: true, challengeToken: expect.stringMatching(/^dlc_[0-9a-f]{48}$/) });
    expect(first.headers['set-cookie']).toBeUndefined();
    // The enabling code used this step: the next step's code (accepted within ±1) signs in.
    const second = await http().post('/auth/login/2fa').send({ challengeToken: first.body.challengeToken, code: totpCode(secret, enabledAt + STEP) }).expect(200);
    expect(second.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    expect(String(second.headers['set-cookie'])).toMatch(/dl_refresh=/);
    await http().get('/api/usage').set(authHeader(second.body.accessToken)).expect(200);
  });

  it('a code from two steps ago, or a code already used (replay) → 401 Invalid code', async () => {
    const { org, secret, enabledAt } = await withTwoFactor();
    const challenge = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    const old = totpCode(secret, Date.now() - 2 * STEP);
    const valid = [-1, 0, 1].map((d) => totpCode(secret, Date.now() + d * STEP));
    if (!valid.includes(old)) {
      expect((await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: old }).expect(401)).body).toEqual(unauthorized('Invalid code'));
    }
    // The code that enabled 2FA was spent: the same code again is refused while still in the window.
    const replay = await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: totpCode(secret, enabledAt) }).expect(401);
    expect(replay.body).toEqual(unauthorized('Invalid code'));
    const nextCode = totpCode(secret, enabledAt + STEP);
    const ok = await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: nextCode }).expect(200);
    expect(ok.body.accessToken).toEqual(expect.any(String));
    // Once accepted, that step's code is spent too: a second login with it is refused.
    const next = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    expect((await http().post('/auth/login/2fa').send({ challengeToken: next, code: nextCode }).expect(401)).body).toEqual(
      unauthorized('Invalid code'),
    );
  });

  it('a challenge replayed, unknown or malformed → 401 Invalid or expired challenge', async () => {
    const { org, recoveryCodes } = await withTwoFactor();
    const challenge = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    await http().post('/auth/login/2fa').send({ challengeToken: challenge, recoveryCode: recoveryCodes[0] }).expect(200);
    const replayed = await http().post('/auth/login/2fa').send({ challengeToken: challenge, recoveryCode: recoveryCodes[1] }).expect(401);
    expect(replayed.body).toEqual(unauthorized('Invalid or expired challenge'));
    for (const token of [`dlc_${'0'.repeat(48)}`, 'dlc_nope', '']) {
      const res = await http().post('/auth/login/2fa').send({ challengeToken: token, code: '123456' }).expect(401);
      expect(res.body).toEqual(unauthorized('Invalid or expired challenge'));
    }
    // The unused recovery code was not spent by the refused replay.
    const again = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    await http().post('/auth/login/2fa').send({ challengeToken: again, recoveryCode: recoveryCodes[1] }).expect(200);
  });

  it('a password changed or reset since the challenge voids it: 401 Invalid or expired challenge, even with the right code', async () => {
    const { org, secret, enabledAt } = await withTwoFactor();
    const challenge = (await login(org.owner.user.email).expect(200)).body.challengeToken as string;
    // The owner changes the password from a session of their own meanwhile.
    await http().post('/auth/change-password').set(authHeader(org.owner.jwt)).send({ currentPassword: SEED_PASSWORD, newPassword: 'a-new-long-password' }).expect(204);
    const res = await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: totpCode(secret, enabledAt + STEP) }).expect(401);
    expect(res.body).toEqual(unauthorized('Invalid or expired challenge'));
    // A login with the new password gets a challenge that works.
    const fresh = await http().post('/auth/login').send({ email: org.owner.user.email, password: 'a-new-long-password' }).expect(200);
    await http().post('/auth/login/2fa').send({ challengeToken: fresh.body.challengeToken, code: totpCode(secret, enabledAt + STEP) }).expect(200);
  });

  it('a challenge lives 5 minutes: expired → 401 Invalid or expired challenge, even with the right code', async () => {
    const { org, secret, enabledAt } = await withTwoFactor();
    const challenge = (await login(org.owner.user.email).expect(200)).body.challengeToken as string;
    const redis = server.app.get(RedisService, { strict: false });
    const key = redis.key('auth', '2fa-challenge', hashChallengeToken(challenge)!);
    const ttl = await redis.client.ttl(key);
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);
    // Five minutes later:
    await redis.client.pexpire(key, 1);
    await new Promise((r) => setTimeout(r, 20));
    const res = await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: totpCode(secret, enabledAt + STEP) }).expect(401);
    expect(res.body).toEqual(unauthorized('Invalid or expired challenge'));
  });

  it('a recovery code works once (any case, with or without the dash); twice → 401 Invalid code', async () => {
    const { org, recoveryCodes } = await withTwoFactor();
    const a = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    await http().post('/auth/login/2fa').send({ challengeToken: a, recoveryCode: recoveryCodes[2].toUpperCase().replace('-', '') }).expect(200);
    const b = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    expect((await http().post('/auth/login/2fa').send({ challengeToken: b, recoveryCode: recoveryCodes[2] }).expect(401)).body).toEqual(
      unauthorized('Invalid code'),
    );
    const used = await env.prisma.recoveryCode.count({ where: { userId: org.owner.user.id, usedAt: { not: null } } });
    expect(used).toBe(1);
  });

  it('five wrong codes end the challenge; neither or both factors → 400', async () => {
    const { org, secret } = await withTwoFactor();
    const challenge = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    const valid = new Set([-1, 0, 1, 2].map((d) => totpCode(secret, Date.now() + d * STEP)));
    const wrong = ['111111', '222222', '333333', '444444', '555555', '666666', '777777'].filter((c) => !valid.has(c)).slice(0, 5);
    for (const code of wrong) await http().post('/auth/login/2fa').send({ challengeToken: challenge, code }).expect(401);
    const after = await http().post('/auth/login/2fa').send({ challengeToken: challenge, code: totpCode(secret, Date.now() + STEP) }).expect(401);
    expect(after.body).toEqual(unauthorized('Invalid or expired challenge'));

    const fresh = (await login(org.owner.user.email).expect(200)).body.challengeToken;
    const neither = await http().post('/auth/login/2fa').send({ challengeToken: fresh }).expect(400);
    expect(neither.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { code: 'Give a code or a recoveryCode' } });
    const both = await http().post('/auth/login/2fa').send({ challengeToken: fresh, code: '123456', recoveryCode: 'abcde-12345' }).expect(400);
    expect(both.body.validation).toEqual({ code: 'Give either a code or a recoveryCode, not both' });
  });

  it('disable with a recovery code or a code, a wrong one → 401 and it stays on; after it the login answers a session', async () => {
    const { org, recoveryCodes } = await withTwoFactor();
    const wrong = await http().post('/auth/2fa/disable').set(authHeader(org.owner.jwt)).send({ recoveryCode: '00000-00000' }).expect(401);
    expect(wrong.body).toEqual(unauthorized('Invalid code'));
    expect((await login(org.owner.user.email).expect(200)).body.twoFactorRequired).toBe(true);
    await http().post('/auth/2fa/disable').set(authHeader(org.owner.jwt)).send({ recoveryCode: recoveryCodes[9] }).expect(204);
    expect(await env.prisma.recoveryCode.count({ where: { userId: org.owner.user.id } })).toBe(0);
    expect((await login(org.owner.user.email).expect(200)).body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    const off = await http().post('/auth/2fa/disable').set(authHeader(org.owner.jwt)).send({ code: '123456' }).expect(400);
    expect(off.body.message).toBe('Two-factor authentication is not enabled');

    // With a code of the authenticator (a step after the enabling one's): 204, off.
    const other = await withTwoFactor();
    await http().post('/auth/2fa/disable').set(authHeader(other.org.owner.jwt)).send({ code: totpCode(other.secret, other.enabledAt + STEP) }).expect(204);
    expect((await login(other.org.owner.user.email).expect(200)).body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
  });

  it("an organization's requireTwoFactor: members without 2FA get 403 except on /auth/*; API keys are not affected", async () => {
    const org = await seedOrganization(env);
    const member = await addMember(env, org.organization.id, 'MEMBER');
    await env.prisma.organization.update({ where: { id: org.organization.id }, data: { requireTwoFactor: true } });
    const refused = await http().get('/api/links').set(authHeader(member.jwt)).expect(403);
    expect(refused.body).toEqual({ error: 'Forbidden', message: 'Two-factor authentication required by your organization', statusCode: 403 });
    await http().get('/api/links').set(authHeader(member.apiKey)).expect(200);
    const setup = await http().post('/auth/2fa/setup').set(authHeader(member.jwt)).expect(200);
    await http().post('/auth/2fa/enable').set(authHeader(member.jwt)).send({ code: totpCode(setup.body.secret, Date.now()) }).expect(200);
    await http().get('/api/links').set(authHeader(member.jwt)).expect(200);
  });
});
