import fc from 'fast-check';
import request from 'supertest';
import { REFRESH_REUSE_INTERVAL_MS, SessionClock } from '@dl/auth';
import { appEnv, authHeader, closeAll, RunningApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

function cookieOf(res: request.Response): string {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = header?.find((c) => c.startsWith('dl_refresh='));
  if (!cookie) throw new Error('no dl_refresh cookie');
  return cookie;
}
const valueOf = (cookie: string) => cookie.split(';')[0];
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, unknown>;

// The dashboard keeps its JWT in memory; a reload gets a new one from POST /auth/refresh,
// which reads an HttpOnly, SameSite=Strict, Path=/auth cookie set by signup and login.
describe('POST /auth/refresh and /auth/logout', () => {
  let env: TestEnv, server: RunningApp;
  let n = 0;
  const signup = () =>
    request(server.url)
      .post('/auth/signup')
      .send({ email: `refresh${++n}-${Date.now()}@example.test`, password: 'a-long-password', name: 'Ada', organizationName: 'Refreshers' })
      .expect(201);

  beforeAll(async () => {
    // A listed origin: even it cannot read a refresh answer with credentials.
    ({ env, server } = await appEnv(createApiApp, { CORS_ORIGIN: 'https://partner.example' }));
  });
  afterAll(() => closeAll(server, env));

  it('signup and login set an HttpOnly, SameSite=Strict cookie on /auth only', async () => {
    const res = await signup();
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^dl_refresh=[0-9a-f-]{36}\.0\.[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('Path=/auth');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(res.headers['cache-control']).toBe('no-store');
    // The body is the contract's, unchanged.
    expect(Object.keys(res.body).sort()).toEqual(['accessToken', 'expiresIn', 'organization', 'user']);

    const login = await request(server.url).post('/auth/login').send({ email: res.body.user.email, password: 'a-long-password' }).expect(200);
    expect(login.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    expect(cookieOf(login)).toContain('HttpOnly');
  });

  it('answers a fresh access token for the same user, organization and role, and renews the cookie', async () => {
    const res = await signup();
    const refreshed = await request(server.url).post('/auth/refresh').set('Cookie', valueOf(cookieOf(res))).expect(200);
    expect(refreshed.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    expect(payloadOf(refreshed.body.accessToken)).toMatchObject({ sub: res.body.user.id, org: res.body.organization.id, role: 'OWNER' });
    expect(cookieOf(refreshed)).toContain('HttpOnly');
    // The new token works on the API.
    await request(server.url).get('/api/usage').set('Authorization', `Bearer ${refreshed.body.accessToken}`).expect(200);
  });

  it('takes the current role, and refuses a user who left the organization', async () => {
    const res = await signup();
    const cookie = valueOf(cookieOf(res));
    const userId = res.body.user.id as string;
    const organizationId = res.body.organization.id as string;
    await env.prisma.membership.updateMany({ where: { userId, organizationId }, data: { role: 'VIEWER' } });
    const viewer = await request(server.url).post('/auth/refresh').set('Cookie', cookie).expect(200);
    expect(payloadOf(viewer.body.accessToken).role).toBe('VIEWER');

    await env.prisma.membership.deleteMany({ where: { userId, organizationId } });
    const gone = await request(server.url).post('/auth/refresh').set('Cookie', valueOf(cookieOf(viewer))).expect(401);
    expect(gone.body).toEqual({ error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 });
    expect(cookieOf(gone)).toContain('Max-Age=0');
  });

  it('answers 401 without a cookie, or with a forged, tampered or foreign credential', async () => {
    const res = await signup();
    const good = valueOf(cookieOf(res)).slice('dl_refresh='.length);
    const [sid, generation, mac] = good.split('.');
    const body = `${sid}.${generation}`;
    const bad = [
      undefined,
      'dl_refresh=',
      'dl_refresh=garbage',
      `dl_refresh=00000000-0000-4000-8000-000000000000.0.${mac}`,
      `dl_refresh=${sid}.1.${mac}`,
      `dl_refresh=${sid}.-1.${mac}`,
      // Always a different MAC: the old one could already end in AA (1 in 4,096).
      `dl_refresh=${body}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      `dl_refresh=${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`,
      `dl_refresh=${res.body.accessToken}`,
      `dl_refresh=${good}.extra`,
    ];
    for (const cookie of bad) {
      const req = request(server.url).post('/auth/refresh');
      const answer = await (cookie ? req.set('Cookie', cookie) : req).expect(401);
      expect(answer.body).toEqual({ error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 });
    }
    // And the refresh credential is not an access token.
    await request(server.url).get('/api/usage').set('Authorization', `Bearer ${good}`).expect(401);
  });

  it('refuses a credential with any one character changed', async () => {
    const good = valueOf(cookieOf(await signup())).slice('dl_refresh='.length);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: good.length - 1 }), fc.constantFrom(...alphabet), async (at, ch) => {
        fc.pre(good[at] !== ch);
        const forged = good.slice(0, at) + ch + good.slice(at + 1);
        const answer = await request(server.url).post('/auth/refresh').set('Cookie', `dl_refresh=${forged}`);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 });
      }),
      { numRuns: 60 },
    );
  });

  it('is never readable cross-origin: CORS does not allow credentials', async () => {
    const res = await signup();
    const cookie = valueOf(cookieOf(res));
    const preflight = await request(server.url)
      .options('/auth/refresh')
      .set('Origin', 'https://partner.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    for (const origin of ['https://partner.example', 'https://evil.example']) {
      const answer = await request(server.url).post('/auth/refresh').set('Origin', origin).set('Cookie', cookie);
      expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const evil = await request(server.url).post('/auth/refresh').set('Origin', 'https://evil.example').set('Cookie', cookie);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();
  });

  describe('the reuse interval: the generation just rotated away is answered for 10 s', () => {
    const INVALID = { error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 };
    const refresh = (cookie: string) => request(server.url).post('/auth/refresh').set('Cookie', cookie);
    const sidOf = (jwt: string) => payloadOf(jwt).sid as string;

    it('two refreshes with the same cookie at once both succeed with one cookie, and the session goes on', async () => {
      const res = await signup();
      const first = valueOf(cookieOf(res));
      const [a, b] = await Promise.all([refresh(first), refresh(first)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      // One live chain: both answers carry the same next generation, not two branches.
      expect(valueOf(cookieOf(a))).toBe(valueOf(cookieOf(b)));
      expect(valueOf(cookieOf(a))).toMatch(/^dl_refresh=[0-9a-f-]{36}\.1\./);
      await request(server.url).get('/api/usage').set(authHeader(a.body.accessToken)).expect(200);
      await request(server.url).get('/api/usage').set(authHeader(b.body.accessToken)).expect(200);
      const next = await refresh(valueOf(cookieOf(a))).expect(200);
      expect(valueOf(cookieOf(next))).toMatch(/\.2\./);
      expect((await env.prisma.session.findUniqueOrThrow({ where: { id: sidOf(res.body.accessToken) } })).revokedAt).toBeNull();
    });

    it('a refresh whose answer was lost (an aborted navigation): the old cookie again gets the rotated one', async () => {
      const res = await signup();
      const first = valueOf(cookieOf(res));
      const lost = await refresh(first).expect(200);
      const again = await refresh(first).expect(200);
      expect(valueOf(cookieOf(again))).toBe(valueOf(cookieOf(lost)));
      await refresh(valueOf(cookieOf(again))).expect(200);
    });

    it('the previous generation presented after the interval ends the session', async () => {
      const res = await signup();
      const first = valueOf(cookieOf(res));
      const current = valueOf(cookieOf(await refresh(first).expect(200)));
      const clock = server.app.get(SessionClock);
      clock.advance(REFRESH_REUSE_INTERVAL_MS + 1000);
      try {
        expect((await refresh(first).expect(401)).body).toEqual(INVALID);
        expect((await refresh(current).expect(401)).body).toEqual(INVALID);
      } finally {
        clock.advance(-(REFRESH_REUSE_INTERVAL_MS + 1000));
      }
      expect((await env.prisma.session.findUniqueOrThrow({ where: { id: sidOf(res.body.accessToken) } })).revokedAt).not.toBeNull();
    });

    it('a generation older than the previous one ends the session at once', async () => {
      const res = await signup();
      const first = valueOf(cookieOf(res));
      const second = valueOf(cookieOf(await refresh(first).expect(200)));
      const third = await refresh(second).expect(200);
      expect((await refresh(first).expect(401)).body).toEqual(INVALID);
      expect((await refresh(valueOf(cookieOf(third))).expect(401)).body).toEqual(INVALID);
      expect((await request(server.url).get('/api/usage').set(authHeader(third.body.accessToken)).expect(401)).body).toEqual(INVALID);
    });
  });

  it('logout clears the cookie', async () => {
    const res = await request(server.url).post('/auth/logout').expect(204);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^dl_refresh=; /);
    expect(cookie).toContain('Max-Age=0');
    expect(cookie).toContain('Path=/auth');
  });
});
