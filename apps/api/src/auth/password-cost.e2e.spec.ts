import request from 'supertest';
import { hashPassword } from '@dl/auth';
import { appEnv, closeAll, RunningApp, SEED_PASSWORD, seedOrganization, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

// Decisions §14: scrypt N = 2^17 for new hashes; older hashes are upgraded at login.
describe('password cost (scrypt N = 2^17, upgraded at login)', () => {
  let env: TestEnv, server: RunningApp;

  beforeAll(async () => ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false', PASSWORD_SCRYPT_LOG2N: '17' })));
  afterAll(() => closeAll(server, env));

  const storedHash = async (email: string) => (await env.prisma.user.findUniqueOrThrow({ where: { email } })).passwordHash;

  it('signup stores an N = 2^17 hash', async () => {
    const email = `cost-${Date.now()}@example.test`;
    await request(server.url).post('/auth/signup').send({ email, password: 'a-long-password', name: 'Cost', organizationName: 'Cost' }).expect(201);
    expect(await storedHash(email)).toMatch(/^scrypt\$131072\$8\$1\$/);
  });

  it('a login on an older N = 2^14 hash succeeds and replaces it with an N = 2^17 one; a failed login changes nothing', async () => {
    const org = await seedOrganization(env);
    const email = org.owner.user.email;
    const old = await hashPassword(SEED_PASSWORD, 14);
    await env.prisma.user.update({ where: { email }, data: { passwordHash: old } });

    await request(server.url).post('/auth/login').send({ email, password: 'wrong-password-1' }).expect(401);
    expect(await storedHash(email)).toBe(old);

    await request(server.url).post('/auth/login').send({ email, password: SEED_PASSWORD }).expect(200);
    const upgraded = await storedHash(email);
    expect(upgraded).toMatch(/^scrypt\$131072\$8\$1\$/);
    await request(server.url).post('/auth/login').send({ email, password: SEED_PASSWORD }).expect(200);
    expect(await storedHash(email)).toBe(upgraded);
  });
});
