import request from 'supertest';
import { addMember, authHeader, createTestEnv, RunningApp, seedOrganization, startApp, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

function cookieOf(res: request.Response): string {
  const header = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = header?.find((c) => c.startsWith('dl_refresh='));
  if (!cookie) throw new Error('no dl_refresh cookie');
  return cookie.split(';')[0];
}
const sidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()).sid as string;
const INVALID_SESSION = { error: 'Unauthorized', message: 'Invalid or expired session', statusCode: 401 };
const DAY = 24 * 3600 * 1000;

/** Decisions §20: rotating refresh cookies, theft detection, expiry, the session list, revocation of access tokens. */
describe('dashboard sessions', () => {
  let env: TestEnv;
  let server: RunningApp;
  let second: RunningApp;
  let n = 0;
  const email = () => `sessions${++n}-${Date.now()}@example.test`;
  const signup = (ua = 'Browser/1') =>
    request(server.url)
      .post('/auth/signup')
      .set('User-Agent', ua)
      .send({ email: email(), password: 'a-long-password', name: 'Ada', organizationName: 'Sessions' })
      .expect(201);
  const login = (address: string, ua = 'Browser/2') =>
    request(server.url).post('/auth/login').set('User-Agent', ua).send({ email: address, password: 'a-long-password' }).expect(200);
  const refresh = (cookie: string, via = server) => request(via.url).post('/auth/refresh').set('Cookie', cookie);

  beforeAll(async () => {
    env = await createTestEnv();
    server = await startApp(createApiApp, env.config);
    second = await startApp(createApiApp, env.withOverrides({}));
  });
  afterAll(async () => {
    await server?.close();
    await second?.close();
    await env?.teardown();
  });

  it('every refresh rotates the cookie; the previous one presented again ends the session', async () => {
    const res = await signup();
    const first = cookieOf(res);
    const r1 = await refresh(first).expect(200);
    const second1 = cookieOf(r1);
    expect(second1).not.toBe(first);
    const r2 = await refresh(second1).expect(200);
    const third = cookieOf(r2);
    await request(server.url).get('/api/usage').set(authHeader(r2.body.accessToken)).expect(200);
    // A thief replays the first cookie: the whole session ends, the legitimate cookie too.
    const replay = await refresh(first).expect(401);
    expect(replay.body).toEqual(INVALID_SESSION);
    expect((await refresh(third).expect(401)).body).toEqual(INVALID_SESSION);
    // And so do its access tokens, on this instance and the other.
    expect((await request(server.url).get('/api/usage').set(authHeader(r2.body.accessToken)).expect(401)).body).toEqual(INVALID_SESSION);
    await request(second.url).get('/api/usage').set(authHeader(res.body.accessToken)).expect(401);
    const row = await env.prisma.session.findUniqueOrThrow({ where: { id: sidOf(res.body.accessToken) } });
    expect(row.revokedAt).not.toBeNull();
  });

  it('a session ends after 30 days unused or 90 days in all', async () => {
    const idle = await signup();
    await env.prisma.session.update({ where: { id: sidOf(idle.body.accessToken) }, data: { lastUsedAt: new Date(Date.now() - 30 * DAY - 60_000) } });
    expect((await refresh(cookieOf(idle)).expect(401)).body).toEqual(INVALID_SESSION);

    const old = await signup();
    const oldId = sidOf(old.body.accessToken);
    await env.prisma.session.update({ where: { id: oldId }, data: { createdAt: new Date(Date.now() - 90 * DAY + 3_600_000) } });
    // An hour before the absolute end: the cookie lives at most that hour.
    const late = await refresh(cookieOf(old)).expect(200);
    const maxAge = Number(/Max-Age=(\d+)/.exec((late.headers['set-cookie'] as unknown as string[]).join(';'))![1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    await env.prisma.session.update({ where: { id: oldId }, data: { createdAt: new Date(Date.now() - 90 * DAY - 60_000) } });
    expect((await refresh(cookieOf(late)).expect(401)).body).toEqual(INVALID_SESSION);
  });

  it('GET /auth/sessions lists the live sessions of the account, the current one marked', async () => {
    const res = await signup('Firefox/1');
    const other = await login(res.body.user.email, 'Safari/2');
    const ended = await login(res.body.user.email, 'Old/3');
    await request(server.url).post('/auth/logout').set('Cookie', cookieOf(ended)).expect(204);
    const list = await request(server.url).get('/auth/sessions').set(authHeader(res.body.accessToken)).expect(200);
    expect(list.body).toEqual({
      sessions: expect.arrayContaining([
        { id: sidOf(res.body.accessToken), createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: 'Firefox/1', ip: '127.0.0.1', current: true },
        { id: sidOf(other.body.accessToken), createdAt: expect.any(String), lastUsedAt: expect.any(String), userAgent: 'Safari/2', ip: '127.0.0.1', current: false },
      ]),
    });
    expect(list.body.sessions).toHaveLength(2);
    expect(new Date(list.body.sessions[0].createdAt).toISOString()).toBe(list.body.sessions[0].createdAt);
  });

  it('DELETE /auth/sessions/:id signs that session out: its cookie and access tokens stop at once, on every instance', async () => {
    const res = await signup();
    const other = await login(res.body.user.email);
    await request(second.url).get('/api/usage').set(authHeader(other.body.accessToken)).expect(200);
    await request(server.url).delete(`/auth/sessions/${sidOf(other.body.accessToken)}`).set(authHeader(res.body.accessToken)).expect(204);
    expect((await request(server.url).get('/api/usage').set(authHeader(other.body.accessToken)).expect(401)).body).toEqual(INVALID_SESSION);
    // The other instance drops its cached entry on the invalidation message, well within 60 s.
    const started = Date.now();
    let status = 0;
    while (Date.now() - started < 2000) {
      status = (await request(second.url).get('/api/usage').set(authHeader(other.body.accessToken))).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    await refresh(cookieOf(other)).expect(401);
    // The session that asked goes on.
    await request(server.url).get('/api/usage').set(authHeader(res.body.accessToken)).expect(200);
  });

  it("another account's, an unknown, an ended or a malformed session id: 404 or 400", async () => {
    const mine = await signup();
    const theirs = await signup();
    const notFound = { error: 'Not Found', message: 'Session not found', statusCode: 404 };
    const del = (id: string) => request(server.url).delete(`/auth/sessions/${id}`).set(authHeader(mine.body.accessToken));
    expect((await del(sidOf(theirs.body.accessToken)).expect(404)).body).toEqual(notFound);
    expect((await del('00000000-0000-4000-8000-000000000000').expect(404)).body).toEqual(notFound);
    const ended = await login(mine.body.user.email);
    await del(sidOf(ended.body.accessToken)).expect(204);
    expect((await del(sidOf(ended.body.accessToken)).expect(404)).body).toEqual(notFound);
    expect((await del('not-a-uuid').expect(400)).body).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: { id: 'Must be a valid UUID' },
    });
    // Theirs still works.
    await request(server.url).get('/api/usage').set(authHeader(theirs.body.accessToken)).expect(200);
  });

  it('sessions routes are for dashboard sessions: an API key gets 403, nothing gets 401', async () => {
    const org = await seedOrganization(env);
    const forbidden = await request(server.url).get('/auth/sessions').set(authHeader(org.owner.apiKey)).expect(403);
    expect(forbidden.body).toEqual({ error: 'Forbidden', message: 'This endpoint requires a dashboard session', statusCode: 403 });
    await request(server.url).get('/auth/sessions').expect(401);
  });

  it('logout ends the session of its cookie: the cookie and its access tokens stop working', async () => {
    const res = await signup();
    await request(server.url).post('/auth/logout').set('Cookie', cookieOf(res)).expect(204);
    await refresh(cookieOf(res)).expect(401);
    await request(server.url).get('/api/usage').set(authHeader(res.body.accessToken)).expect(401);
  });

  it('removing a member stops their access tokens at once and their refresh', async () => {
    const org = await seedOrganization(env);
    const member = await addMember(env, org.organization.id, 'MEMBER');
    await request(server.url).get('/api/usage').set(authHeader(member.jwt)).expect(200);
    await request(server.url).delete(`/api/organization/members/${member.user.id}`).set(authHeader(org.owner.jwt)).expect(204);
    expect((await request(server.url).get('/api/usage').set(authHeader(member.jwt)).expect(401)).body).toEqual(INVALID_SESSION);
  });

  describe('cross-site requests on the cookie-authenticated routes', () => {
    const refused = { error: 'Forbidden', message: 'Cross-site request refused', statusCode: 403 };

    it.each(['/auth/refresh', '/auth/logout'])('%s refuses another Origin, Origin: null and Sec-Fetch-Site: cross-site', async (path) => {
      const res = await signup();
      const cookie = cookieOf(res);
      for (const [header, value] of [
        ['Origin', 'https://evil.example'],
        ['Origin', 'null'],
        ['Origin', 'not a url'],
        ['Sec-Fetch-Site', 'cross-site'],
      ]) {
        const answer = await request(server.url).post(path).set('Cookie', cookie).set(header, value).expect(403);
        expect(answer.body).toEqual(refused);
      }
      // Nothing was done: the cookie still refreshes, from the dashboard's own origin.
      const host = new URL(server.url).host;
      await request(server.url).post('/auth/refresh').set('Cookie', cookie).set('Origin', `http://${host}`).set('Sec-Fetch-Site', 'same-origin').expect(200);
    });
  });
});
