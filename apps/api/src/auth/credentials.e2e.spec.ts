import { createHmac } from 'node:crypto';
import { Controller, Get, Module } from '@nestjs/common';
import request from 'supertest';
import { Auth, CredentialsRepository, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { AppConfig } from '@dl/platform/config';
import { createHttpApp } from '@dl/platform/http';
import { addMember, appEnv, authHeader, closeAll, RunningApp, SeededOrganization, seedOrganization, startApp, TEST_JWT_SECRET, TestEnv } from '@dl/testing';
import { ApiModule } from '../api.module';
import { createApiApp } from '../app';

/** Routes exercising the decorator's options (the real ones live in other areas). */
@Controller('t')
class ProbeController {
  @Get('read')
  @Auth(Permissions.read)
  read(@CurrentPrincipal() p: Principal) {
    return p;
  }

  @Get('link-read')
  @Auth(Permissions.read, { missingMessage: 'Authentication required' })
  linkRead() {
    return { ok: true };
  }

  @Get('qr')
  @Auth(Permissions.read, { rateLimit: false })
  qr() {
    return { ok: true };
  }

  @Get('events')
  @Auth(Permissions.analyticsEvents)
  events() {
    return { ok: true };
  }

  @Get('export')
  @Auth(Permissions.analyticsExport)
  export() {
    return { ok: true };
  }

  @Get('regenerate')
  @Auth(Permissions.reportsRegenerate)
  regenerate() {
    return { ok: true };
  }
}

@Auth(Permissions.linksWrite)
@Controller('t/class')
class ClassLevelController {
  @Get()
  inherits() {
    return { ok: true };
  }

  @Get('read')
  @Auth(Permissions.read)
  overrides() {
    return { ok: true };
  }
}

const probeApp = (config: AppConfig) => {
  @Module({ imports: [ApiModule.forRoot(config)], controllers: [ProbeController, ClassLevelController] })
  class ProbeModule {}
  return createHttpApp(ProbeModule, config, 'api');
};

function jwt(header: object, payload: object, secret = TEST_JWT_SECRET): string {
  const h = Buffer.from(JSON.stringify(header)).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const alg = (header as { alg?: string }).alg;
  if (alg === 'none') return `${h}.${p}.`;
  const hash = alg === 'HS512' ? 'sha512' : 'sha256';
  return `${h}.${p}.${createHmac(hash, secret).update(`${h}.${p}`).digest('base64url')}`;
}

const err = (statusCode: number, message: string) => ({
  error: statusCode === 401 ? 'Unauthorized' : statusCode === 403 ? 'Forbidden' : 'Too Many Requests',
  message,
  statusCode,
});

describe('bearer credentials (@Auth guard)', () => {
  let env: TestEnv, server: RunningApp, second: RunningApp, org: SeededOrganization;
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    ({ env, server } = await appEnv(probeApp, { PLAN_LIMITS: JSON.stringify({ FREE: { requestsPerMinute: 1000 }, PRO: { requestsPerMinute: 1000 } }) }));
    second = await startApp(createApiApp, env.config);
    org = await seedOrganization(env);
  });
  afterAll(() => closeAll(server, second, env));

  const get = (path: string, authorization?: string) => {
    const r = request(server.url).get(path);
    return authorization === undefined ? r : r.set('Authorization', authorization);
  };

  it('accepts a dl_ key and a JWT, and exposes the principal', async () => {
    const byKey = await get('/t/read', `Bearer ${org.owner.apiKey}`).expect(200);
    expect(byKey.body).toEqual({
      kind: 'apiKey',
      userId: org.owner.user.id,
      organizationId: org.organization.id,
      role: 'OWNER',
      tier: 'FREE',
      apiKeyId: org.owner.apiKeyId,
      scopes: ['all'],
    });
    const bySession = await get('/t/read', `Bearer ${org.owner.jwt}`).expect(200);
    expect(bySession.body).toEqual({
      kind: 'session',
      userId: org.owner.user.id,
      organizationId: org.organization.id,
      role: 'OWNER',
      tier: 'FREE',
      sessionId: JSON.parse(Buffer.from(org.owner.jwt.split('.')[1], 'base64url').toString()).sid,
    });
    await get('/t/read', `bearer ${org.owner.apiKey}`).expect(200);
  });

  it('no Authorization header: 401 Missing or invalid API key (Authentication required where the route says so)', async () => {
    expect((await get('/t/read').expect(401)).body).toEqual(err(401, 'Missing or invalid API key'));
    expect((await get('/t/link-read').expect(401)).body).toEqual(err(401, 'Authentication required'));
    // A header that is present but wrong keeps the generic message on those routes too.
    expect((await get('/t/link-read', 'Basic abc').expect(401)).body).toEqual(err(401, 'Missing or invalid API key'));
  });

  it('reads the token from the Authorization header only: access_token in the query string or body is ignored', async () => {
    const query = `access_token=${org.owner.apiKey}`;
    expect((await get(`/t/read?${query}`).expect(401)).body).toEqual(err(401, 'Missing or invalid API key'));
    expect((await get(`/t/link-read?${query}`).expect(401)).body).toEqual(err(401, 'Authentication required'));
    const posted = await request(server.url).post('/api/keys').send({ name: 'x', access_token: org.owner.jwt }).expect(401);
    expect(posted.body).toEqual(err(401, 'Missing or invalid API key'));
    // A header and a query token together: the header decides (passport-http-bearer alone would answer 400).
    await get(`/t/read?access_token=${org.owner.jwt}`, `Bearer ${org.owner.apiKey}`).expect(200);
  });

  describe('malformed credentials: 401 Missing or invalid API key, before any database work', () => {
    const hex64 = 'a'.repeat(64);
    const cases: Array<[string, string]> = [
      ['empty header', ''],
      ['another scheme', `Basic ${hex64}`],
      ['scheme only', 'Bearer'],
      ['scheme and a space', 'Bearer '],
      ['two spaces', `Bearer  dl_${hex64}`],
      ['token then junk', `Bearer dl_${hex64} extra`],
      ['wrong prefix', `Bearer dk_${hex64}`],
      ['no prefix', `Bearer ${hex64}`],
      ['63 hex', `Bearer dl_${hex64.slice(1)}`],
      ['65 hex', `Bearer dl_${hex64}a`],
      ['upper-case hex', `Bearer dl_${'A'.repeat(64)}`],
      ['upper-case prefix', `Bearer DL_${hex64}`],
      ['non-hex character', `Bearer dl_${hex64.slice(1)}g`],
      ['whitespace inside', `Bearer dl_${hex64.slice(0, 30)} ${hex64.slice(31)}`],
      ['tab inside', `Bearer dl_${hex64.slice(0, 30)}\t${hex64.slice(31)}`],
      ['an opaque token', 'Bearer abc'],
    ];
    it.each(cases)('%s', async (_label, header) => {
      const repo = server.app.get(CredentialsRepository, { strict: false });
      const byHash = jest.spyOn(repo, 'findApiKeyByHash');
      const byMember = jest.spyOn(repo, 'findMembership');
      try {
        const res = await get('/t/read', header).expect(401);
        expect(res.body).toEqual(err(401, 'Missing or invalid API key'));
        expect(byHash).not.toHaveBeenCalled();
        expect(byMember).not.toHaveBeenCalled();
      } finally {
        byHash.mockRestore();
        byMember.mockRestore();
      }
    });
  });

  it('a well-formed unknown key: 401 Invalid API key', async () => {
    const res = await get('/t/read', `Bearer dl_${'0'.repeat(64)}`).expect(401);
    expect(res.body).toEqual(err(401, 'Invalid API key'));
  });

  it.each([
    ['an API key', 'findApiKeyByHash', (o: SeededOrganization) => o.owner.apiKey],
    ["a session's membership and revocation (decisions §20)", 'findSessionMembership', (o: SeededOrganization) => o.owner.jwt],
  ] as const)('looks %s up in Postgres once, not on every request', async (_label, lookup, token) => {
    const fresh = await seedOrganization(env);
    const spy = jest.spyOn(server.app.get(CredentialsRepository, { strict: false }), lookup);
    try {
      for (let i = 0; i < 5; i++) await get('/t/read', `Bearer ${token(fresh)}`).expect(200);
      expect(spy.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('a deleted key fails on the next request, on this instance and within 1 s on another', async () => {
    const a = await seedOrganization(env, { tier: 'PRO' });
    const created = await request(server.url).post('/api/keys').set(authHeader(a.owner.jwt)).send({ name: 'doomed' }).expect(201);
    const key = `Bearer ${created.body.key}`;
    await get('/t/read', key).expect(200);
    await request(second.url).get('/api/usage').set('Authorization', key).expect(200);
    await request(server.url).delete(`/api/keys/${created.body.id}`).set(authHeader(a.owner.jwt)).expect(204);
    const revoked = await get('/t/read', key).expect(401);
    expect(revoked.body).toEqual(err(401, 'API key has been deleted or revoked'));
    const started = Date.now();
    let status = 0;
    while (Date.now() - started < 1000) {
      status = (await request(second.url).get('/api/usage').set('Authorization', key)).status;
      if (status === 401) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(status).toBe(401);
    const again = await request(second.url).get('/api/usage').set('Authorization', key).expect(401);
    expect(again.body).toEqual(err(401, 'API key has been deleted or revoked'));
  });

  describe('sessions', () => {
    const sid = () => JSON.parse(Buffer.from(org.owner.jwt.split('.')[1], 'base64url').toString()).sid as string;
    const claims = () => ({ sub: org.owner.user.id, org: org.organization.id, role: 'OWNER', sid: sid(), iat: now(), exp: now() + 3600 });

    it('accepts a token signed with JWT_SECRET (HS256)', async () => {
      await get('/t/read', `Bearer ${jwt({ alg: 'HS256', typ: 'JWT' }, claims())}`).expect(200);
    });

    it.each([
      ['alg none', () => jwt({ alg: 'none', typ: 'JWT' }, claims())],
      ['alg none with a signature', () => jwt({ alg: 'none', typ: 'JWT' }, claims()) + 'abc'],
      ['HS512 with the same secret', () => jwt({ alg: 'HS512', typ: 'JWT' }, claims())],
      ['another secret', () => jwt({ alg: 'HS256', typ: 'JWT' }, claims(), 'x'.repeat(48))],
      ['a tampered payload', () => {
        const [h, , s] = org.owner.jwt.split('.');
        const p = Buffer.from(JSON.stringify({ ...claims(), role: 'OWNER', org: '00000000-0000-4000-8000-000000000000' })).toString('base64url');
        return `${h}.${p}.${s}`;
      }],
      ['a tampered signature', () => org.owner.jwt.slice(0, -2) + (org.owner.jwt.endsWith('AA') ? 'BB' : 'AA')],
      ['an expired token', () => jwt({ alg: 'HS256', typ: 'JWT' }, { ...claims(), iat: now() - 7200, exp: now() - 3600 })],
      ['a token without exp', () => jwt({ alg: 'HS256', typ: 'JWT' }, { sub: org.owner.user.id, org: org.organization.id, role: 'OWNER' })],
      ['a token without org', () => jwt({ alg: 'HS256', typ: 'JWT' }, { sub: org.owner.user.id, role: 'OWNER', exp: now() + 60 })],
      ['garbage in three parts', () => 'aaa.bbb.ccc'],
    ])('refuses %s: 401 Invalid or expired session', async (_label, token) => {
      const res = await get('/t/read', `Bearer ${token()}`).expect(401);
      expect(res.body).toEqual(err(401, 'Invalid or expired session'));
    });

    it('refuses a token for an organization the user left (and their keys)', async () => {
      const member = await addMember(env, org.organization.id, 'MEMBER');
      await get('/t/read', `Bearer ${member.jwt}`).expect(200);
      await get('/t/read', `Bearer ${member.apiKey}`).expect(200);
      await request(server.url).delete(`/api/organization/members/${member.user.id}`).set(authHeader(org.owner.jwt)).expect(204);
      expect((await get('/t/read', `Bearer ${member.jwt}`).expect(401)).body).toEqual(err(401, 'Invalid or expired session'));
      expect((await get('/t/read', `Bearer ${member.apiKey}`).expect(401)).body).toEqual(err(401, 'API key has been deleted or revoked'));
    });

    it('uses the current role, not the one in the token', async () => {
      const admin = await addMember(env, org.organization.id, 'ADMIN');
      await get('/t/export', `Bearer ${admin.jwt}`).expect(403); // FREE plan: no event analytics
      await request(server.url)
        .patch(`/api/organization/members/${admin.user.id}`)
        .set(authHeader(org.owner.jwt))
        .send({ role: 'VIEWER' })
        .expect(200);
      const res = await get('/t/read', `Bearer ${admin.jwt}`).expect(200);
      expect(res.body.role).toBe('VIEWER');
    });
  });

  describe('roles and plans', () => {
    let pro: SeededOrganization;
    beforeAll(async () => {
      pro = await seedOrganization(env, { tier: 'PRO' });
    });

    const matrix: Array<[string, Record<string, number>]> = [
      ['/t/read', { OWNER: 200, ADMIN: 200, MEMBER: 200, VIEWER: 200 }],
      ['/t/class', { OWNER: 200, ADMIN: 200, MEMBER: 200, VIEWER: 403 }],
      ['/t/class/read', { OWNER: 200, ADMIN: 200, MEMBER: 200, VIEWER: 200 }],
      ['/t/events', { OWNER: 200, ADMIN: 200, MEMBER: 200, VIEWER: 403 }],
      ['/t/export', { OWNER: 200, ADMIN: 200, MEMBER: 403, VIEWER: 403 }],
      ['/t/regenerate', { OWNER: 200, ADMIN: 403, MEMBER: 403, VIEWER: 403 }],
    ];
    it.each(matrix)('%s by role (PRO plan)', async (path, expected) => {
      for (const [role, status] of Object.entries(expected)) {
        const token = role === 'OWNER' ? pro.owner.apiKey : (await addMember(env, pro.organization.id, role as 'ADMIN')).apiKey;
        const res = await get(path, `Bearer ${token}`);
        expect([role, res.status]).toEqual([role, status]);
        if (status === 403) expect(res.body).toEqual(err(403, 'Your role does not allow this action'));
      }
    });

    it('event analytics need a paid plan: 403 on FREE even for the owner', async () => {
      for (const path of ['/t/events', '/t/export']) {
        const res = await get(path, `Bearer ${org.owner.apiKey}`).expect(403);
        expect(res.body).toEqual(err(403, 'Event analytics is not available on your plan'));
      }
    });

    it('dashboard-only endpoints refuse API keys with 403', async () => {
      for (const [method, path] of [
        ['get', '/api/keys'],
        ['post', '/api/keys'],
        ['patch', `/api/keys/${org.owner.apiKeyId}`],
        ['delete', `/api/keys/${org.owner.apiKeyId}`],
        ['get', '/api/organization/members'],
        ['post', '/api/organization/members'],
        ['patch', `/api/organization/members/${org.owner.user.id}`],
        ['delete', `/api/organization/members/${org.owner.user.id}`],
        ['get', '/api/organization/invitations'],
        ['delete', '/api/organization/invitations/00000000-0000-4000-8000-000000000000'],
      ] as const) {
        const res = await request(server.url)[method](path).set(authHeader(org.owner.apiKey)).send({});
        expect([method, path, res.status, res.body]).toEqual([method, path, 403, err(403, 'This endpoint requires a dashboard session')]);
      }
    });
  });

  it('records lastUsedAt once, not on every request', async () => {
    const fresh = await seedOrganization(env);
    const read = () => env.prisma.apiKey.findUniqueOrThrow({ where: { id: fresh.owner.apiKeyId } });
    expect((await read()).lastUsedAt).toBeNull();
    await get('/t/read', `Bearer ${fresh.owner.apiKey}`).expect(200);
    let first: Date | null = null;
    for (let i = 0; i < 50 && !first; i++) {
      first = (await read()).lastUsedAt;
      if (!first) await new Promise((r) => setTimeout(r, 20));
    }
    expect(first).toBeInstanceOf(Date);
    for (let i = 0; i < 3; i++) {
      await get('/t/read', `Bearer ${fresh.owner.apiKey}`).expect(200);
      await request(second.url).get('/api/usage').set(authHeader(fresh.owner.apiKey)).expect(200);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await read()).lastUsedAt).toEqual(first);
  });
});
