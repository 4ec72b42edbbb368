import request from 'supertest';
import { AuditRecorder } from '@dl/audit';
import { appEnv, authHeader, closeAll, readSpMetadata, RunningApp, SamlTestIdp, SeededOrganization, seedOrganization, startDnsServer, TestDnsServer, TestEnv } from '@dl/testing';
import { createApiApp } from '../app';

const API_PUBLIC_URL = 'http://api.saml.test';
const ACS = `${API_PUBLIC_URL}/auth/sso/saml/acs`;
const SP_ENTITY_ID = `${API_PUBLIC_URL}/auth/sso/saml/metadata`;
const DOMAIN = 'acme.test';
const FORM = 'application/x-www-form-urlencoded';

/**
 * Single sign-on with SAML 2.0 (decisions §25) against a SAML identity provider built with samlify
 * and a DNS server for the TXT record, both on loopback.
 */
describe('SSO: SAML settings and sign-in', () => {
  let env: TestEnv, server: RunningApp, dns: TestDnsServer, idp: SamlTestIdp;
  let org: SeededOrganization;

  beforeAll(async () => {
    dns = await startDnsServer();
    idp = await SamlTestIdp.start({ spEntityId: SP_ENTITY_ID, acsUrl: ACS, user: { email: 'Ada@Acme.test', name: 'Ada Lovelace' } });
    ({ env, server } = await appEnv(createApiApp, { RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address, SSO_ALLOW_HTTP_HOSTS: new URL(idp.url).host, API_PUBLIC_URL }));
    org = await seedOrganization(env, { tier: 'BUSINESS' });
  });
  afterAll(() => closeAll(server, idp, dns, env));

  const put = (body: object) => request(server.url).put('/api/organization/sso').set(authHeader(org.owner.jwt)).send(body);
  const samlSetting = (over: object = {}) => ({ type: 'saml', idpMetadataXml: idp.metadataXml, domains: [DOMAIN], defaultRole: 'VIEWER', ...over });
  const auditActions = async () => {
    await server.app.get(AuditRecorder).flush();
    return (await env.prisma.auditEntry.findMany({ where: { organizationId: org.organization.id }, orderBy: { seq: 'asc' } })).map((e) => e.action);
  };
  /** The IdP posts the form from its own origin, cross-site, as a browser would. */
  const postAcs = (fields: Record<string, string>) =>
    request(server.url).post('/auth/sso/saml/acs').type(FORM).set('Origin', idp.url).set('Sec-Fetch-Site', 'cross-site').send(new URLSearchParams(fields).toString());
  /** A sign-in started for `email`: the IdP's URL and the RelayState (our state) it carries. */
  async function start(email = 'ada@acme.test'): Promise<{ location: string; relayState: string }> {
    const res = await request(server.url).get(`/auth/sso/start?email=${encodeURIComponent(email)}`).expect(302);
    return { location: res.headers.location, relayState: new URL(res.headers.location).searchParams.get('RelayState')! };
  }
  const refreshCookie = (res: request.Response) => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('dl_refresh='));
  const failed = (reason: string) => ({ error: 'Unauthorized', message: `Single sign-on failed: ${reason}`, statusCode: 401 });

  it('an Owner sets SAML from the IdP metadata or from entry point and certificate; bad XML, certificate or http endpoint is a 400 naming the field', async () => {
    const bad = async (body: object, validation: object) => {
      const res = await put(body).expect(400);
      expect(res.body).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
    };
    await bad(samlSetting({ idpMetadataXml: '<md:EntityDescriptor' }), { idpMetadataXml: 'Must be well-formed XML' });
    await bad(samlSetting({ idpMetadataXml: '<EntityDescriptor entityID="x"/>' }), { idpMetadataXml: 'Must contain an IDPSSODescriptor' });
    await bad(samlSetting({ idpMetadataXml: undefined, entryPoint: 'https://idp.example/sso', certificate: 'MIIBnotacert' }), { certificate: 'Must be an X.509 certificate (PEM or base64)' });
    await bad(samlSetting({ idpMetadataXml: undefined, entryPoint: 'http://idp.example/sso', certificate: idp.certificate }), { entryPoint: 'Must be an https URL' });

    const manual = await put(samlSetting({ idpMetadataXml: undefined, entryPoint: idp.ssoUrl, certificate: idp.certificate })).expect(200);
    expect(manual.body).toMatchObject({ type: 'saml', issuer: null, entryPoint: idp.ssoUrl, defaultRole: 'VIEWER' });
    const res = await put(samlSetting()).expect(200);
    expect(res.body).toEqual({
      type: 'saml',
      issuer: null,
      clientId: null,
      entryPoint: idp.ssoUrl,
      domains: [{ domain: DOMAIN, status: 'pending', verification: { type: 'TXT', name: `_dl-sso.${DOMAIN}`, value: expect.stringMatching(/^dl-sso=[0-9a-f]{32}$/) } }],
      enforce: false,
      defaultRole: 'VIEWER',
    });
    dns.setTxt(`_dl-sso.${DOMAIN}`, [res.body.domains[0].verification.value]);
    expect((await request(server.url).post('/api/organization/sso/verify').set(authHeader(org.owner.jwt)).expect(200)).body.domains[0].status).toBe('verified');
  });

  it('first sign-in: start → the IdP (AuthnRequest, RelayState) → its cross-site POST to the ACS creates the member with the default role; /auth/refresh answers like login', async () => {
    const { location, relayState } = await start('Ada@ACME.test');
    expect(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`)).toBe(true);
    const form = await idp.followSignIn(location);
    expect(form).toEqual({ action: ACS, SAMLResponse: expect.any(String), RelayState: relayState });

    const res = await postAcs({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }).expect(302);
    expect(res.headers.location).toBe('/app');
    const cookie = refreshCookie(res);
    expect(cookie).toMatch(/^dl_refresh=[^;]+; Path=\/auth; HttpOnly; SameSite=Strict; Max-Age=\d+/);

    const refreshed = await request(server.url).post('/auth/refresh').set('Cookie', cookie!.split(';')[0]).expect(200);
    expect(refreshed.body).toEqual({ accessToken: expect.any(String), expiresIn: 3600 });
    const user = await env.prisma.user.findUniqueOrThrow({ where: { email: 'ada@acme.test' } });
    expect(user.name).toBe('Ada Lovelace');
    const me = await request(server.url).get('/auth/me').set(authHeader(refreshed.body.accessToken)).expect(200);
    expect(me.body).toMatchObject({ user: { email: 'ada@acme.test', emailVerified: true }, role: 'VIEWER' });
    expect(await env.prisma.membership.findMany({ where: { userId: user.id }, select: { organizationId: true, role: true } })).toEqual([{ organizationId: org.organization.id, role: 'VIEWER' }]);
    expect((await auditActions()).filter((a) => a.startsWith('sso.'))).toEqual(['sso.updated', 'sso.updated', 'sso.domain_verified', 'sso.user_provisioned', 'sso.signed_in']);

    // The same response again: its state is spent (400); with a fresh state, its assertion is (401).
    await postAcs({ SAMLResponse: form.SAMLResponse, RelayState: form.RelayState }).expect(400);
    const again = await postAcs({ SAMLResponse: form.SAMLResponse, RelayState: (await start()).relayState }).expect(401);
    expect(again.body).toEqual(failed('SAML assertion was already used'));
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it.each([
    ['altered after signing', () => idp.badSignature(), 'SAML response signature is not valid'],
    ['signed by another key', () => idp.signedByStranger(), 'SAML response signature is not valid'],
    ['for another audience', () => idp.wrongAudience(), 'SAML assertion is for another audience'],
    ['for another recipient', () => idp.wrongRecipient(), 'SAML response is for another recipient'],
    ['expired', () => idp.expired(), 'SAML assertion has expired'],
  ])('a response %s is refused (401), no session', async (_case, make, reason) => {
    const users = await env.prisma.user.count();
    const res = await postAcs({ SAMLResponse: await make(), RelayState: (await start()).relayState }).expect(401);
    expect(res.body).toEqual(failed(reason));
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await env.prisma.user.count()).toBe(users);
  });

  it('an email outside the verified domains is refused (403); a forged or missing RelayState is a 400; garbage is a 401', async () => {
    const outside = await postAcs({ SAMLResponse: await idp.response({ user: { email: 'eve@evil.test' } }), RelayState: (await start()).relayState }).expect(403);
    expect(outside.body.message).toBe("The identity provider's email is not of a verified domain of this organization");
    expect(await env.prisma.user.findUnique({ where: { email: 'eve@evil.test' } })).toBeNull();
    const forged = await postAcs({ SAMLResponse: await idp.response(), RelayState: 'forged' }).expect(400);
    expect(forged.body).toEqual({ error: 'Bad Request', message: 'Invalid or expired single sign-on state', statusCode: 400 });
    await postAcs({ SAMLResponse: await idp.response() }).expect(400);
    const junk = await postAcs({ SAMLResponse: 'not-base64-xml', RelayState: (await start()).relayState }).expect(401);
    expect(junk.body).toEqual(failed('SAML response is malformed'));
  });

  it('GET /auth/sso/saml/metadata (our entity id) answers the SP metadata an IdP reads: entity id, ACS, NameID format; a domain must be a verified SAML one (404 otherwise)', async () => {
    const res = await request(server.url).get('/auth/sso/saml/metadata').expect(200);
    expect(res.headers['content-type']).toBe('application/samlmetadata+xml; charset=utf-8');
    expect(readSpMetadata(res.text)).toEqual({
      entityId: SP_ENTITY_ID,
      acs: [{ binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', location: ACS }],
      nameIdFormats: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      wantAssertionsSigned: false,
    });
    const forDomain = await request(server.url).get(`/auth/sso/saml/metadata?domain=${DOMAIN.toUpperCase()}`).expect(200);
    expect(readSpMetadata(forDomain.text).entityId).toBe(SP_ENTITY_ID);

    for (const domain of ['unknown.test', '', 'acme.test&domain=x.test']) {
      const unknown = await request(server.url).get(`/auth/sso/saml/metadata?domain=${domain}`).expect(404);
      expect(unknown.body).toEqual({ error: 'Not Found', message: 'Single sign-on is not configured', statusCode: 404 });
    }
  });
});
