import { PasswordHasher } from '@dl/auth';
import request from 'supertest';
import { appEnv, authHeader, closeAll, RunningApp, SEED_PASSWORD, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /auth/signup and /auth/login', () => {
  let env: TestEnv, server: RunningApp;
  let n = 0;
  const email = () => `user${++n}-${Date.now()}@example.test`;
  const valid = () => ({ email: email(), password: 'a-long-password', name: 'Ada Lovelace', organizationName: 'Analytical Engines' });
  const counts = async () => ({
    users: await env.prisma.user.count(),
    orgs: await env.prisma.organization.count(),
    memberships: await env.prisma.membership.count(),
    templates: await env.prisma.template.count(),
  });

  // The login throttle admits a check uncounted when Redis is slower than the limiters' wait (fail
  // open); the parallel-guesses case counts exactly, so it waits as long as a loaded host needs.
  beforeAll(async () => ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_REDIS_TIMEOUT_MS: '5000' })));
  afterAll(() => closeAll(server, env));

  describe('signup', () => {
    it('creates a FREE organization, its owner and the default template, and answers a 1 h session', async () => {
      const body = valid();
      const res = await request(server.url).post('/auth/signup').send(body).expect(201);
      expect(res.body).toEqual({
        accessToken: expect.any(String),
        expiresIn: 3600,
        user: { id: expect.stringMatching(UUID), email: body.email, name: 'Ada Lovelace' },
        organization: { id: expect.stringMatching(UUID), name: 'Analytical Engines', slug: expect.stringMatching(/^analytical-engines/), tier: 'FREE' },
      });
      const { header, payload } = decode(res.body.accessToken);
      expect(header.alg).toBe('HS256');
      expect(payload).toMatchObject({ sub: res.body.user.id, org: res.body.organization.id, role: 'OWNER' });
      expect((payload.exp as number) - (payload.iat as number)).toBe(3600);

      const orgId = res.body.organization.id;
      const membership = await env.prisma.membership.findFirstOrThrow({ where: { organizationId: orgId } });
      expect(membership).toMatchObject({ userId: res.body.user.id, role: 'OWNER' });
      const template = await env.prisma.template.findFirstOrThrow({ where: { organizationId: orgId } });
      expect(template).toMatchObject({ slug: 'default', defaults: {} });
      const user = await env.prisma.user.findUniqueOrThrow({ where: { id: res.body.user.id } });
      expect(user.passwordHash).toMatch(/^scrypt\$/);
      expect(user.passwordHash).not.toContain(body.password);

      await request(server.url).get('/api/usage').set(authHeader(res.body.accessToken)).expect(200);
    });

    it('gives a second organization of the same name its own slug', async () => {
      const a = await request(server.url).post('/auth/signup').send({ ...valid(), organizationName: 'Twin Co' }).expect(201);
      const b = await request(server.url).post('/auth/signup').send({ ...valid(), organizationName: 'Twin Co' }).expect(201);
      expect(a.body.organization.slug).toBe('twin-co');
      expect(b.body.organization.slug).toMatch(/^twin-co-[0-9a-f]{6}$/);
    });

    it('stores the email lower-cased and refuses it again in any case: 409, nothing written', async () => {
      const body = { ...valid(), email: `Mixed.Case${Date.now()}@Example.TEST` };
      const res = await request(server.url).post('/auth/signup').send(body).expect(201);
      expect(res.body.user.email).toBe(body.email.toLowerCase());
      const before = await counts();
      const dup = await request(server.url).post('/auth/signup').send({ ...valid(), email: body.email.toUpperCase() }).expect(409);
      expect(dup.body).toEqual({ error: 'Conflict', message: 'An account with this email already exists', statusCode: 409 });
      expect(await counts()).toEqual(before);
    });

    // One refusal over HTTP; every rule of the body: auth.dto.spec.ts.
    it.each([
      ['missing everything', {}, { email: 'Must be a valid email address', password: 'Must be a string', name: 'Must be a string', organizationName: 'Must be a string' }],
    ])('refuses %s with 400 and writes nothing', async (_label, patch, validation) => {
      const before = await counts();
      const body = Object.keys(patch).length ? { ...valid(), ...patch } : {};
      const res = await request(server.url).post('/auth/signup').send(body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
      expect(await counts()).toEqual(before);
    });

    it('refuses malformed JSON', async () => {
      const res = await request(server.url).post('/auth/signup').set('content-type', 'application/json').send('{"email":').expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Invalid JSON body', statusCode: 400 });
    });
  });

  describe('login', () => {
    it('answers a session for the email and password (email in any case)', async () => {
      const seeded = await seedOrganization(env);
      const res = await request(server.url)
        .post('/auth/login')
        .send({ email: seeded.owner.user.email.toUpperCase(), password: SEED_PASSWORD })
        .expect(200);
      expect(res.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
      expect(decode(res.body.accessToken).payload).toMatchObject({ sub: seeded.owner.user.id, org: seeded.organization.id, role: 'OWNER' });
      await request(server.url).get('/api/usage').set(authHeader(res.body.accessToken)).expect(200);
    });

    it('picks the organization asked for, and refuses one the user does not belong to', async () => {
      const a = await seedOrganization(env);
      const b = await seedOrganization(env);
      await env.prisma.membership.create({ data: { organizationId: b.organization.id, userId: a.owner.user.id, role: 'VIEWER' } });
      const first = await request(server.url).post('/auth/login').send({ email: a.owner.user.email, password: SEED_PASSWORD }).expect(200);
      expect(decode(first.body.accessToken).payload).toMatchObject({ org: a.organization.id, role: 'OWNER' });
      const second = await request(server.url)
        .post('/auth/login')
        .send({ email: a.owner.user.email, password: SEED_PASSWORD, organizationId: b.organization.id })
        .expect(200);
      expect(decode(second.body.accessToken).payload).toMatchObject({ org: b.organization.id, role: 'VIEWER' });
      const c = await seedOrganization(env);
      const refused = await request(server.url)
        .post('/auth/login')
        .send({ email: a.owner.user.email, password: SEED_PASSWORD, organizationId: c.organization.id })
        .expect(401);
      expect(refused.body).toEqual({ error: 'Unauthorized', message: 'Invalid email or password', statusCode: 401 });
    });

    it.each([
      ['a wrong password', (e: string) => ({ email: e, password: 'wrong-password-123' })],
      ['an unknown email', () => ({ email: 'nobody@example.test', password: SEED_PASSWORD })],
    ])('refuses %s with 401 Invalid email or password', async (_label, body) => {
      const seeded = await seedOrganization(env);
      const res = await request(server.url).post('/auth/login').send(body(seeded.owner.user.email)).expect(401);
      expect(res.body).toEqual({ error: 'Unauthorized', message: 'Invalid email or password', statusCode: 401 });
    });

    it('throttles password guessing per email: the 11th attempt after 10 failures gets 429', async () => {
      const seeded = await seedOrganization(env);
      const other = await seedOrganization(env);
      const email = seeded.owner.user.email;
      for (let i = 0; i < 4; i++) await request(server.url).post('/auth/login').send({ email, password: 'wrong-password-1' }).expect(401);
      // A success clears the count.
      await request(server.url).post('/auth/login').send({ email, password: SEED_PASSWORD }).expect(200);
      for (let i = 0; i < 10; i++) await request(server.url).post('/auth/login').send({ email, password: 'wrong-password-1' }).expect(401);
      const res = await request(server.url).post('/auth/login').send({ email: email.toUpperCase(), password: SEED_PASSWORD }).expect(429);
      expect(res.body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
      expect(res.body.retryAfter).toBeGreaterThan(800);
      expect(res.body.retryAfter).toBeLessThanOrEqual(900);
      expect(res.headers['retry-after']).toBe(String(res.body.retryAfter));
      await request(server.url).post('/auth/login').send({ email: other.owner.user.email, password: SEED_PASSWORD }).expect(200);
    });

    it('50 parallel wrong passwords for one email: at most 10 password checks, the rest 429 (decisions §20)', async () => {
      const seeded = await seedOrganization(env);
      const hasher = server.app.get(PasswordHasher, { strict: false });
      const verify = jest.spyOn(hasher, 'verify');
      try {
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => request(server.url).post('/auth/login').send({ email: seeded.owner.user.email, password: 'wrong-password-1' })),
        );
        const statuses = answers.map((a) => a.status);
        expect(statuses.filter((s) => s === 401)).toHaveLength(10);
        expect(statuses.filter((s) => s === 429)).toHaveLength(40);
        expect(verify).toHaveBeenCalledTimes(10);
        // Even the right password waits for the window now.
        await request(server.url).post('/auth/login').send({ email: seeded.owner.user.email, password: SEED_PASSWORD }).expect(429);
        expect(verify).toHaveBeenCalledTimes(10);
      } finally {
        verify.mockRestore();
      }
    });

    it.each([
      ['missing fields', {}, { email: 'Must be a valid email address', password: 'Must be a string' }],
    ])('refuses %s with 400', async (_label, body, validation) => {
      const res = await request(server.url).post('/auth/login').send(body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
    });
  });
});
