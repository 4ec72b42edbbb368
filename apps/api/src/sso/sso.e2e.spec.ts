import request from 'supertest';
import { AuditRecorder } from '@dl/audit';
import { generateEmailToken, hashEmailToken } from '@dl/auth';
import { RedisService } from '@dl/platform/redis';
import { addMember, appEnv, authHeader, closeAll, IdTokenForgery, RunningApp, SeededOrganization, seedOrganization, startDnsServer, startOidcProvider, TestDnsServer, TestEnv, TestOidcProvider } from '@dl/testing';
import { createApiApp } from '../app';

const API_PUBLIC_URL = 'http://api.sso.test';
const CALLBACK = `${API_PUBLIC_URL}/auth/sso/oidc/callback`;
const DOMAIN = 'acme.test';

/**
 * Single sign-on with OIDC (decisions §25) against a real OpenID Connect provider (`oidc-provider`)
 * and a real DNS server for the TXT records, both on loopback.
 */
describe('SSO: settings, domain verification and OIDC sign-in', () => {
  let env: TestEnv, server: RunningApp, dns: TestDnsServer, idp: TestOidcProvider;
  let org: SeededOrganization, other: SeededOrganization;

  beforeAll(async () => {
    dns = await startDnsServer();
    idp = await startOidcProvider(CALLBACK);
    ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address, SSO_ALLOW_HTTP_HOSTS: idp.hostPort, API_PUBLIC_URL }));
    org = await seedOrganization(env, { tier: 'BUSINESS' });
    other = await seedOrganization(env, { tier: 'BUSINESS' });
  });
  afterAll(() => closeAll(server, idp, dns, env));

  const api = (jwt: string) => ({
    get: (p: string) => request(server.url).get(p).set(authHeader(jwt)),
    put: (p: string, b: object) => request(server.url).put(p).set(authHeader(jwt)).send(b),
    post: (p: string, b: object = {}) => request(server.url).post(p).set(authHeader(jwt)).send(b),
  });
  const oidcSetting = (over: object = {}) => ({ type: 'oidc', issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, domains: [DOMAIN], defaultRole: 'VIEWER', ...over });
  const auditActions = async (organizationId: string) => {
    await server.app.get(AuditRecorder).flush();
    return (await env.prisma.auditEntry.findMany({ where: { organizationId }, orderBy: { seq: 'asc' } })).map((e) => e.action);
  };

  /** start → the provider (login and consent at once) → the callback, on this server. */
  async function signIn(email: string): Promise<request.Response> {
    const start = await request(server.url).get(`/auth/sso/start?email=${encodeURIComponent(email)}`).expect(302);
    const callback = await idp.authorize(start.headers.location);
    expect(callback.startsWith(`${CALLBACK}?`)).toBe(true);
    return request(server.url).get(callback.slice(API_PUBLIC_URL.length));
  }
  const refreshCookie = (res: request.Response) => {
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('dl_refresh='));
    if (!cookie) throw new Error('no dl_refresh cookie');
    return cookie;
  };
  const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

  it('an Owner sets OIDC: the answer shows the TXT record and never the secret; bad input is a 400', async () => {
    const insecure = await api(org.owner.jwt).put('/api/organization/sso', oidcSetting({ issuer: 'http://idp.example.com' })).expect(400);
    expect(insecure.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { issuer: 'Must be an https URL' } });
    const missing = await api(org.owner.jwt).put('/api/organization/sso', { type: 'oidc', issuer: idp.issuer }).expect(400);
    expect(missing.body.validation).toEqual({ clientId: 'Required', clientSecret: 'Required' });
    await api(org.owner.jwt).get('/api/organization/sso').expect(404, { error: 'Not Found', message: 'Single sign-on is not configured', statusCode: 404 });

    const res = await api(org.owner.jwt).put('/api/organization/sso', oidcSetting()).expect(200);
    expect(res.body).toEqual({
      type: 'oidc',
      issuer: idp.issuer,
      clientId: idp.clientId,
      entryPoint: null,
      domains: [{ domain: DOMAIN, status: 'pending', verification: { type: 'TXT', name: `_dl-sso.${DOMAIN}`, value: expect.stringMatching(/^dl-sso=[0-9a-f]{32}$/) } }],
      enforce: false,
      defaultRole: 'VIEWER',
    });
    expect(JSON.stringify(res.body)).not.toContain(idp.clientSecret);
    const stored = await env.prisma.ssoConnection.findUniqueOrThrow({ where: { organizationId: org.organization.id } });
    expect(stored.clientSecret).not.toContain(idp.clientSecret);
    expect((await api(org.owner.jwt).get('/api/organization/sso').expect(200)).body).toEqual(res.body);
    await server.app.get(AuditRecorder).flush();
    const [updated] = await env.prisma.auditEntry.findMany({ where: { organizationId: org.organization.id, action: 'sso.updated' } });
    expect(updated.changes).toMatchObject({ type: 'oidc', issuer: idp.issuer, clientCredentialChanged: true, domainsAdded: [DOMAIN], defaultRole: 'VIEWER' });
    expect(JSON.stringify(updated.changes)).not.toContain(idp.clientSecret);
  });

  it('an Admin cannot read or change it, and another organization reads only its own', async () => {
    const admin = await addMember(env, org.organization.id, 'ADMIN');
    await api(admin.jwt).get('/api/organization/sso').expect(403);
    await api(admin.jwt).put('/api/organization/sso', oidcSetting()).expect(403);
    await api(org.owner.apiKey).get('/api/organization/sso').expect(403);
    await api(other.owner.jwt).get('/api/organization/sso').expect(404, { error: 'Not Found', message: 'Single sign-on is not configured', statusCode: 404 });
    await api(other.owner.jwt).post('/api/organization/sso/verify').expect(404);
  });

  it('verify looks the TXT record up: pending until `_dl-sso.<domain>` holds `dl-sso=<token>`', async () => {
    const before = await api(org.owner.jwt).post('/api/organization/sso/verify').expect(200);
    expect(before.body.domains[0].status).toBe('pending');
    dns.setTxt(`_dl-sso.${DOMAIN}`, ['v=spf1 -all', 'dl-sso=00000000000000000000000000000000']);
    expect((await api(org.owner.jwt).post('/api/organization/sso/verify').expect(200)).body.domains[0].status).toBe('pending');
    dns.setTxt(`_dl-sso.${DOMAIN}`, [before.body.domains[0].verification.value]);
    const after = await api(org.owner.jwt).post('/api/organization/sso/verify').expect(200);
    expect(after.body.domains).toEqual([{ ...before.body.domains[0], status: 'verified' }]);
    expect(await auditActions(org.organization.id)).toEqual(expect.arrayContaining(['sso.updated', 'sso.domain_verified']));
  });

  it("a domain another organization verified is refused: 409 Domain '<domain>' is already in use", async () => {
    const taken = await api(other.owner.jwt).put('/api/organization/sso', oidcSetting()).expect(409);
    expect(taken.body).toEqual({ error: 'Conflict', message: `Domain '${DOMAIN}' is already in use`, statusCode: 409 });
    // Pending elsewhere is allowed; verifying it with a correct record of its own is not.
    await api(other.owner.jwt).put('/api/organization/sso', oidcSetting({ domains: ['other.test'] })).expect(200);
    expect(JSON.stringify((await api(other.owner.jwt).get('/api/organization/sso').expect(200)).body)).not.toContain(DOMAIN);

    // Pending in two organizations, each with its record in place: the first to verify wins, the other's verify is a 409.
    const third = await seedOrganization(env, { tier: 'BUSINESS' });
    const record = async (o: SeededOrganization) =>
      (await api(o.owner.jwt).put('/api/organization/sso', oidcSetting({ domains: ['other.test', 'shared.test'] })).expect(200)).body.domains.find((d: { domain: string }) => d.domain === 'shared.test').verification.value;
    dns.setTxt('_dl-sso.shared.test', [await record(third), await record(other)]);
    expect((await api(third.owner.jwt).post('/api/organization/sso/verify').expect(200)).body.domains.map((d: { status: string }) => d.status)).toEqual(['pending', 'verified']);
    const lost = await api(other.owner.jwt).post('/api/organization/sso/verify').expect(409);
    expect(lost.body).toEqual({ error: 'Conflict', message: "Domain 'shared.test' is already in use", statusCode: 409 });
    expect((await api(other.owner.jwt).get('/api/organization/sso').expect(200)).body.domains.map((d: { status: string }) => d.status)).toEqual(['pending', 'pending']);
  });

  it('first sign-in creates the account and the membership with the default role; /auth/refresh answers like login', async () => {
    const start = await request(server.url).get('/auth/sso/start?email=Ana%40ACME.test').expect(302);
    const authorize = new URL(start.headers.location);
    expect(authorize.origin).toBe(idp.issuer);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: idp.clientId,
      redirect_uri: CALLBACK,
      response_type: 'code',
      code_challenge_method: 'S256',
      login_hint: 'ana@acme.test',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.any(String),
      code_challenge: expect.any(String),
    });
    const callback = await idp.authorize(start.headers.location);
    const res = await request(server.url).get(callback.slice(API_PUBLIC_URL.length)).expect(302);
    expect(res.headers.location).toBe('/app');
    const cookie = refreshCookie(res);
    expect(cookie).toMatch(/; Path=\/auth; HttpOnly; SameSite=Strict; Max-Age=\d+/);

    const refreshed = await request(server.url).post('/auth/refresh').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(refreshed.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    const user = await env.prisma.user.findUniqueOrThrow({ where: { email: 'ana@acme.test' } });
    expect(payloadOf(refreshed.body.accessToken)).toMatchObject({ sub: user.id, org: org.organization.id, role: 'VIEWER' });
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(await env.prisma.membership.findMany({ where: { userId: user.id }, select: { organizationId: true, role: true } })).toEqual([{ organizationId: org.organization.id, role: 'VIEWER' }]);
    const me = await request(server.url).get('/auth/me').set(authHeader(refreshed.body.accessToken)).expect(200);
    expect(me.body).toMatchObject({ user: { email: 'ana@acme.test', emailVerified: true }, role: 'VIEWER' });
    expect((await auditActions(org.organization.id)).filter((a) => a.startsWith('sso.'))).toEqual(['sso.updated', 'sso.domain_verified', 'sso.user_provisioned', 'sso.signed_in']);
  });

  it('a second sign-in reuses the account and the membership', async () => {
    const users = await env.prisma.user.count();
    const res = await signIn('ana@acme.test');
    expect(res.status).toBe(302);
    const refreshed = await request(server.url).post('/auth/refresh').set('Cookie', refreshCookie(res).split(';')[0]).expect(200);
    const user = await env.prisma.user.findUniqueOrThrow({ where: { email: 'ana@acme.test' } });
    expect(payloadOf(refreshed.body.accessToken).sub).toBe(user.id);
    expect(await env.prisma.user.count()).toBe(users);
    expect(await env.prisma.membership.count({ where: { userId: user.id } })).toBe(1);
    expect((await auditActions(org.organization.id)).filter((a) => a === 'sso.user_provisioned')).toHaveLength(1);
  });

  it('a forged, replayed or expired state is refused (400); a tampered nonce fails the ID token check (401)', async () => {
    const forged = await request(server.url).get('/auth/sso/oidc/callback?code=abc&state=forged').expect(400);
    expect(forged.body).toEqual({ error: 'Bad Request', message: 'Invalid or expired single sign-on state', statusCode: 400 });
    await request(server.url).get('/auth/sso/oidc/callback').expect(400);

    const start = await request(server.url).get('/auth/sso/start?email=ana@acme.test').expect(302);
    const callback = (await idp.authorize(start.headers.location)).slice(API_PUBLIC_URL.length);
    await request(server.url).get(callback).expect(302);
    expect((await request(server.url).get(callback).expect(400)).body.message).toBe('Invalid or expired single sign-on state');

    // The state store holds another nonce than the one the provider put in the ID token.
    const again = await request(server.url).get('/auth/sso/start?email=ana@acme.test').expect(302);
    const state = new URL(again.headers.location).searchParams.get('state')!;
    const redis = server.app.get(RedisService);
    const key = redis.key('sso', 'state', state);
    const pending = JSON.parse((await redis.client.get(key))!);
    await redis.client.set(key, JSON.stringify({ ...pending, data: { ...pending.data, nonce: 'another-nonce' } }), 'EX', 60);
    const tampered = await request(server.url).get((await idp.authorize(again.headers.location)).slice(API_PUBLIC_URL.length)).expect(401);
    expect(tampered.body).toEqual({ error: 'Unauthorized', message: 'Single sign-on failed: unexpected ID Token "nonce" claim value', statusCode: 401 });
    expect(tampered.headers['set-cookie']).toBeUndefined();
  });

  it.each<[string, IdTokenForgery, string]>([
    ['altered after signing (a claim changed)', 'altered', 'JWT signature verification failed'],
    ['signed by another key under the provider key id', 'stranger', 'JWT signature verification failed'],
    ['of another issuer, signed by the provider', 'issuer', 'unexpected JWT "iss" (issuer) claim value'],
    ['for another client (audience), signed by the provider', 'audience', 'unexpected JWT "aud" (audience) claim value'],
    ['expired an hour ago, signed by the provider', 'expired', 'unexpected JWT "exp" (expiration time) claim value, expiration is past current timestamp'],
  ])('an ID token %s is refused at the callback: 401, no cookie, no account', async (_case, mode, reason) => {
    const sessions = await env.prisma.session.count();
    idp.forgeIdTokens(mode);
    try {
      const res = await signIn('ana@acme.test');
      expect([res.status, res.body]).toEqual([401, { error: 'Unauthorized', message: `Single sign-on failed: ${reason}`, statusCode: 401 }]);
      expect(res.headers['set-cookie']).toBeUndefined();
    } finally {
      idp.forgeIdTokens(null);
    }
    expect(await env.prisma.user.findUnique({ where: { email: 'mallory@acme.test' } })).toBeNull();
    expect(await env.prisma.session.count()).toBe(sessions);
    // The provider's own tokens still sign in.
    expect((await signIn('ana@acme.test')).status).toBe(302);
  });

  it("the provider's email must be of a verified domain of the organization, and verified", async () => {
    idp.loginAs({ sub: 'eve', email: 'eve@evil.test' });
    const outside = await signIn('ana@acme.test');
    expect([outside.status, outside.body.message]).toEqual([403, "The identity provider's email is not of a verified domain of this organization"]);
    idp.loginAs({ sub: 'unverified', email: 'bo@acme.test', email_verified: false });
    const unverified = await signIn('bo@acme.test');
    expect([unverified.status, unverified.body.message]).toEqual([403, 'The identity provider has not verified the email address']);
    idp.loginAs(null);
    expect(await env.prisma.user.findUnique({ where: { email: 'eve@evil.test' } })).toBeNull();
  });

  it('start: a malformed email is a 400, a domain nobody verified a 404; SAML metadata for an OIDC domain a 404', async () => {
    const bad = await request(server.url).get('/auth/sso/start?email=not-an-email').expect(400);
    expect(bad.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation: { email: 'Must be a valid email address' } });
    await request(server.url).get('/auth/sso/start').expect(400);
    await request(server.url).get('/auth/sso/start?email=a@other.test').expect(404, { error: 'Not Found', message: 'Single sign-on is not set up for other.test', statusCode: 404 });
    // An OIDC organization's verified domain has no SAML metadata.
    await request(server.url).get(`/auth/sso/saml/metadata?domain=${DOMAIN}`).expect(404, { error: 'Not Found', message: 'Single sign-on is not configured', statusCode: 404 });
  });

  it('with enforce, password login, reset request and an earlier reset link for the domain answer 403; SSO still signs in; other domains are unaffected', async () => {
    const signup = await request(server.url).post('/auth/signup').send({ email: 'carl@acme.test', password: 'a-long-password', name: 'Carl', organizationName: 'Carl Co' }).expect(201);
    await request(server.url).post('/auth/login').send({ email: 'carl@acme.test', password: 'a-long-password' }).expect(200);
    // A reset link mailed before enforcement: its token stored as the reset request stores it.
    const resetToken = generateEmailToken('RESET');
    await env.prisma.emailToken.create({ data: { userId: signup.body.user.id, kind: 'RESET', tokenHash: hashEmailToken(resetToken), expiresAt: new Date(Date.now() + 3600_000) } });

    // The secret left out keeps the stored one.
    await api(org.owner.jwt).put('/api/organization/sso', { type: 'oidc', issuer: idp.issuer, clientId: idp.clientId, domains: [DOMAIN], enforce: true, defaultRole: 'MEMBER' }).expect(200);
    const refused = { error: 'Forbidden', message: `Single sign-on required for ${DOMAIN}`, statusCode: 403 };
    await request(server.url).post('/auth/login').send({ email: 'Carl@Acme.test', password: 'a-long-password' }).expect(403, refused);
    await request(server.url).post('/auth/login').send({ email: 'carl@acme.test', password: 'wrong-password' }).expect(403, refused);
    await request(server.url).post('/auth/forgot-password').send({ email: 'carl@acme.test' }).expect(403, refused);
    // The earlier link is refused and changes nothing: the password, and the token still unused.
    const { passwordHash } = await env.prisma.user.findUniqueOrThrow({ where: { id: signup.body.user.id } });
    await request(server.url).post('/auth/reset-password').send({ token: resetToken, password: 'a-new-long-password' }).expect(403, refused);
    expect((await env.prisma.user.findUniqueOrThrow({ where: { id: signup.body.user.id } })).passwordHash).toBe(passwordHash);
    expect((await env.prisma.emailToken.findUniqueOrThrow({ where: { tokenHash: hashEmailToken(resetToken) } })).usedAt).toBeNull();
    await request(server.url).post('/auth/login').send({ email: other.owner.user.email, password: 'wrong-password' }).expect(401);
    await request(server.url).post('/auth/forgot-password').send({ email: other.owner.user.email }).expect(202);

    // Carl's password account joins the organization through SSO, with the (new) default role, and keeps his own.
    const res = await signIn('carl@acme.test');
    expect(res.status).toBe(302);
    const memberships = await env.prisma.membership.findMany({ where: { userId: signup.body.user.id }, select: { organizationId: true, role: true } });
    expect(memberships).toEqual(expect.arrayContaining([{ organizationId: org.organization.id, role: 'MEMBER' }]));
    expect(memberships).toHaveLength(2);
  });
});
