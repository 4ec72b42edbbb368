import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import request from 'supertest';
import { authHeader, createTestEnv, RunningApp, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const INVALID_TOKEN = { error: 'Bad Request', message: 'Invalid or expired token', statusCode: 400 };
const INVALID_SESSION = { error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const sidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).sid as string;

function cookieOf(res: request.Response): string {
  const cookie = (res.headers['set-cookie'] as unknown as string[] | undefined)?.find((c) => c.startsWith('dl_refresh='));
  if (!cookie) throw new Error('no dl_refresh cookie');
  return cookie.split(';')[0];
}

/** Email verification, /auth/me, password reset and change (decisions §20), through the real mail outbox. */
describe('accounts: verification, profile, passwords', () => {
  let env: TestEnv;
  let server: RunningApp;
  let outbox: string;
  let redis: Redis;
  let n = 0;
  const email = () => `acct${++n}-${Date.now()}@example.test`;
  const PASSWORD = 'a-long-password';

  beforeAll(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'dl-account-outbox-'));
    env = await createTestEnv({ MAIL_OUTBOX_DIR: outbox, DASHBOARD_URL: 'https://dash.example/app', RATE_LIMIT_ENABLED: 'false' });
    server = await startApp(createApiApp, env.config);
    redis = new Redis(env.config.REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await server?.close();
    await env?.teardown();
    await rm(outbox, { recursive: true, force: true });
  });

  const mailsTo = async (address: string): Promise<string[]> => {
    const files = (await readdir(outbox)).filter((f) => f.includes(address.replace(/[^A-Za-z0-9@._-]+/g, '_'))).sort();
    // Quoted-printable bodies decoded, so links and tokens read as sent.
    const raw = await Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
    return raw.map((m) => m.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))));
  };
  /** Waits for the nth email to an address (some are sent after the answer). */
  const nthMail = async (address: string, nth: number): Promise<string> => {
    for (let i = 0; i < 100; i++) {
      const mails = await mailsTo(address);
      if (mails.length >= nth) return mails[nth - 1];
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no email #${nth} to ${address}`);
  };
  const tokenIn = (mail: string, prefix: 'dlv_' | 'dlr_') => new RegExp(`${prefix}[0-9a-f]{48}`).exec(mail)![0];
  const signup = async () => {
    const address = email();
    const res = await request(server.url).post('/auth/signup').send({ email: address, password: PASSWORD, name: 'Ada', organizationName: 'Acct' }).expect(201);
    return { address, res, jwt: res.body.accessToken as string };
  };
  const post = (path: string, body: object, jwt?: string) => {
    const req = request(server.url).post(path);
    return (jwt ? req.set(authHeader(jwt)) : req).send(body);
  };

  describe('email verification', () => {
    it('signup emails a dlv_ link (same look as the report email); following it verifies the address once', async () => {
      const { address, res, jwt } = await signup();
      const mail = await nthMail(address, 1);
      expect(mail).toMatch(/Subject: Confirm your email address/);
      expect(mail).toContain('https://dash.example/app/verify-email#token=');
      expect(mail).toContain('max-width:600px'); // the report email's card
      const token = tokenIn(mail, 'dlv_');
      const row = await env.prisma.emailToken.findFirstOrThrow({ where: { userId: res.body.user.id, kind: 'VERIFY' } });
      expect(JSON.stringify(row)).not.toContain(token);
      expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 24 * 3600 * 1000)).toBeLessThan(5000);

      const before = await request(server.url).get('/auth/me').set(authHeader(jwt)).expect(200);
      expect(before.body.user.emailVerified).toBe(false);
      expect((await post('/auth/verify-email', { token }).expect(200)).body).toEqual({ verified: true });
      const after = await request(server.url).get('/auth/me').set(authHeader(jwt)).expect(200);
      expect(after.body.user.emailVerified).toBe(true);
      expect((await post('/auth/verify-email', { token }).expect(400)).body).toEqual(INVALID_TOKEN);
    });

    it.each([
      ['an unknown token', () => 'dlv_' + '0'.repeat(48)],
      ['a malformed token', () => 'dlv_xyz'],
      ['a token in uppercase hex', () => 'dlv_' + 'A'.repeat(48)],
      ['a token of the other kind (reset)', () => 'dlr_' + '1'.repeat(48)],
      ['an invitation token', () => 'dli_' + '2'.repeat(48)],
      ['an empty token', () => ''],
    ])('%s: 400 Invalid or expired token', async (_label, token) => {
      expect((await post('/auth/verify-email', { token: token() }).expect(400)).body).toEqual(INVALID_TOKEN);
    });

    it('an expired token: 400, the address stays unverified', async () => {
      const { address, res } = await signup();
      const token = tokenIn(await nthMail(address, 1), 'dlv_');
      await env.prisma.emailToken.updateMany({ where: { userId: res.body.user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await post('/auth/verify-email', { token }).expect(400)).body).toEqual(INVALID_TOKEN);
      expect((await env.prisma.user.findUniqueOrThrow({ where: { id: res.body.user.id } })).emailVerifiedAt).toBeNull();
    });

    it('resend: 202 {} once a minute, 429 with retryAfter within the minute of the last email', async () => {
      const { address, jwt, res } = await signup();
      await nthMail(address, 1);
      const soon = await post('/auth/resend-verification', {}, jwt).expect(429);
      expect(soon.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
      expect(soon.body.retryAfter).toBeGreaterThanOrEqual(1);
      expect(soon.body.retryAfter).toBeLessThanOrEqual(60);
      expect(soon.headers['retry-after']).toBe(String(soon.body.retryAfter));
      // A minute later (the throttle's key gone):
      await redis.del(`${env.config.REDIS_PREFIX}:auth:mail:verify:${res.body.user.id}`);
      expect((await post('/auth/resend-verification', {}, jwt).expect(202)).body).toEqual({});
      const second = tokenIn(await nthMail(address, 2), 'dlv_');
      await post('/auth/verify-email', { token: second }).expect(200);
    });

    it('resend needs a dashboard session', async () => {
      expect((await post('/auth/resend-verification', {}).expect(401)).body).toEqual({ error: 'Unauthorized', message: 'Missing or invalid API key', statusCode: 401 });
      const { jwt } = await signup();
      const key = await request(server.url).post('/api/keys').set(authHeader(jwt)).send({ name: 'ci' }).expect(201);
      expect((await post('/auth/resend-verification', {}, key.body.key).expect(403)).body).toEqual({
        error: 'Forbidden',
        message: 'This endpoint requires a dashboard session',
        statusCode: 403,
      });
    });

    it('an unverified account keeps full use of its own organization', async () => {
      const { jwt } = await signup();
      expect((await request(server.url).get('/auth/me').set(authHeader(jwt)).expect(200)).body.user.emailVerified).toBe(false);
      await request(server.url).post('/api/keys').set(authHeader(jwt)).send({ name: 'ci' }).expect(201);
      await request(server.url).post('/api/organization/members').set(authHeader(jwt)).send({ email: email(), role: 'ADMIN' }).expect(201);
      await request(server.url).patch('/api/organization').set(authHeader(jwt)).send({ name: 'Renamed before verifying' }).expect(200);
    });
  });

  describe('GET/PATCH /auth/me', () => {
    it('shows the account, the organization of the session, the role and every organization', async () => {
      const { address, res, jwt } = await signup();
      const me = await request(server.url).get('/auth/me').set(authHeader(jwt)).expect(200);
      expect(me.body).toEqual({
        user: { id: res.body.user.id, email: address, name: 'Ada', emailVerified: false, twoFactorEnabled: false, createdAt: expect.stringMatching(ISO) },
        organization: res.body.organization,
        role: 'OWNER',
        organizations: [{ id: res.body.organization.id, name: 'Acct', slug: res.body.organization.slug, role: 'OWNER' }],
      });
      await env.prisma.user.update({ where: { id: res.body.user.id }, data: { twoFactorEnabledAt: new Date() } });
      expect((await request(server.url).get('/auth/me').set(authHeader(jwt)).expect(200)).body.user.twoFactorEnabled).toBe(true);
      const renamed = await request(server.url).patch('/auth/me').set(authHeader(jwt)).send({ name: '  Ada L. ' }).expect(200);
      expect(renamed.body.user.name).toBe('Ada L.');
      const bad = await request(server.url).patch('/auth/me').set(authHeader(jwt)).send({ name: '' }).expect(400);
      expect(bad.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { name: 'Must be 1-100 characters' } });
    });
  });

  describe('password reset', () => {
    it('202 {} for any address; one email a minute per address; the dlr_ token resets once, verifies, and ends every session', async () => {
      const { address, res, jwt } = await signup();
      const other = await request(server.url).post('/auth/login').send({ email: address, password: PASSWORD }).expect(200);
      expect((await post('/auth/forgot-password', { email: address.toUpperCase() }).expect(202)).body).toEqual({});
      const mail = await nthMail(address, 2); // 1: verification
      expect(mail).toMatch(/Subject: Reset your password/);
      expect(mail).toContain('https://dash.example/app/reset-password#token=');
      const token = tokenIn(mail, 'dlr_');
      // A second request within the minute sends nothing more.
      await post('/auth/forgot-password', { email: address }).expect(202);
      await new Promise((r) => setTimeout(r, 300));
      expect(await mailsTo(address)).toHaveLength(2);

      const reset = await post('/auth/reset-password', { token, password: 'a-brand-new-password' }).expect(200);
      expect(reset.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
      cookieOf(reset);
      // Every earlier session ends: access tokens and refresh cookies.
      expect((await request(server.url).get('/api/usage').set(authHeader(jwt)).expect(401)).body).toEqual(INVALID_SESSION);
      await request(server.url).get('/api/usage').set(authHeader(other.body.accessToken)).expect(401);
      await request(server.url).post('/auth/refresh').set('Cookie', cookieOf(res)).expect(401);
      await request(server.url).get('/api/usage').set(authHeader(reset.body.accessToken)).expect(200);
      // The new password signs in, the old one not; the address is proven.
      await request(server.url).post('/auth/login').send({ email: address, password: PASSWORD }).expect(401);
      await request(server.url).post('/auth/login').send({ email: address, password: 'a-brand-new-password' }).expect(200);
      expect((await env.prisma.user.findUniqueOrThrow({ where: { id: res.body.user.id } })).emailVerifiedAt).not.toBeNull();
      expect((await post('/auth/reset-password', { token, password: 'yet-another-password' }).expect(400)).body).toEqual(INVALID_TOKEN);
    });

    it('an unknown address: the same 202, no email, and the same timing within a few milliseconds', async () => {
      const { address } = await signup();
      const unknown = `nobody-${Date.now()}@example.test`;
      const time = async (a: string) => {
        const started = process.hrtime.bigint();
        const res = await post('/auth/forgot-password', { email: a });
        expect([res.status, res.body]).toEqual([202, {}]);
        return Number(process.hrtime.bigint() - started) / 1e6;
      };
      const known: number[] = [];
      const missing: number[] = [];
      for (let i = 0; i < 15; i++) {
        missing.push(await time(unknown));
        known.push(await time(address));
      }
      const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      expect(Math.abs(median(known) - median(missing))).toBeLessThan(5);
      await new Promise((r) => setTimeout(r, 300));
      expect(await mailsTo(unknown)).toHaveLength(0);
      expect(await mailsTo(address)).toHaveLength(2); // verification + one reset (a minute apart at most one)
    });

    it.each([
      ['an unknown token', 'dlr_' + '0'.repeat(48)],
      ['a malformed token', 'dlr_0'],
      ['a verification token', 'dlv_' + '0'.repeat(48)],
    ])('%s: 400 Invalid or expired token', async (_label, token) => {
      expect((await post('/auth/reset-password', { token, password: 'long-enough-1' }).expect(400)).body).toEqual(INVALID_TOKEN);
    });

    it('an expired or foreign-kind token: 400, the password unchanged', async () => {
      const { address, res } = await signup();
      const verifyToken = tokenIn(await nthMail(address, 1), 'dlv_');
      expect((await post('/auth/reset-password', { token: verifyToken.replace('dlv_', 'dlr_'), password: 'long-enough-1' }).expect(400)).body).toEqual(INVALID_TOKEN);
      await post('/auth/forgot-password', { email: address }).expect(202);
      const token = tokenIn(await nthMail(address, 2), 'dlr_');
      await env.prisma.emailToken.updateMany({ where: { userId: res.body.user.id, kind: 'RESET' }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect((await post('/auth/reset-password', { token, password: 'long-enough-1' }).expect(400)).body).toEqual(INVALID_TOKEN);
      // A verification token does not work as a reset token either.
      await post('/auth/verify-email', { token }).expect(400);
      await request(server.url).post('/auth/login').send({ email: address, password: PASSWORD }).expect(200);
    });
  });

  describe('change of password', () => {
    it('a wrong current password: 400 naming it; the right one: 204, other sessions end, this one goes on', async () => {
      const { address, jwt } = await signup();
      const other = await request(server.url).post('/auth/login').send({ email: address, password: PASSWORD }).expect(200);
      const wrong = await post('/auth/change-password', { currentPassword: 'not-the-password', newPassword: 'another-long-one' }, jwt).expect(400);
      expect(wrong.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { currentPassword: 'Wrong password' } });
      await request(server.url).get('/api/usage').set(authHeader(other.body.accessToken)).expect(200);
      await post('/auth/change-password', { currentPassword: PASSWORD, newPassword: 'another-long-one' }, jwt).expect(204);
      expect((await request(server.url).get('/api/usage').set(authHeader(other.body.accessToken)).expect(401)).body).toEqual(INVALID_SESSION);
      await request(server.url).get('/api/usage').set(authHeader(jwt)).expect(200);
      const sessions = await request(server.url).get('/auth/sessions').set(authHeader(jwt)).expect(200);
      expect(sessions.body.sessions.map((s: { id: string }) => s.id)).toEqual([sidOf(jwt)]);
      await request(server.url).post('/auth/login').send({ email: address, password: 'another-long-one' }).expect(200);
    });
  });
});
