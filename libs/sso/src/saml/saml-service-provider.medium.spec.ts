import { RedisService } from '@dl/platform/redis';
import { parseAllowHttpHosts } from '../sso-urls';
import { createTestEnv, SamlTestIdp, TestEnv } from '@dl/testing';
import { resolveSamlConnection, SamlConnection } from './saml-connection';
import { SamlServiceProvider } from './saml-service-provider';
import { SAML_REFUSALS, SamlResponseError } from './saml.errors';

const SP = { spEntityId: 'https://links.example/auth/sso/saml/metadata', acsUrl: 'https://links.example/auth/sso/saml/acs' };

describe(SamlServiceProvider.name, () => {
  let env: TestEnv;
  let redis: RedisService;
  let idp: SamlTestIdp;
  let provider: SamlServiceProvider;
  let connection: SamlConnection;

  beforeAll(async () => {
    env = await createTestEnv();
    redis = new RedisService(env.config);
    await redis.onModuleInit();
    idp = await SamlTestIdp.start({ ...SP, user: { email: 'Ada@Acme.test', name: 'Ada Lovelace' } });
    provider = new SamlServiceProvider(redis, SP);
    connection = resolveSamlConnection({ idpMetadataXml: idp.metadataXml }, { allowHttpHosts: parseAllowHttpHosts(new URL(idp.url).host) });
  });
  afterAll(async () => {
    await idp?.close();
    await redis?.onModuleDestroy();
    await env?.teardown();
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (err: unknown) => (err instanceof SamlResponseError ? [err.reason, err.message] : err),
    );

  it('accepts a signed response: the email (lower-cased) and the name', async () => {
    const identity = await provider.validateResponse(connection, await idp.response());
    expect(identity).toEqual({
      email: 'ada@acme.test',
      name: 'Ada Lovelace',
      nameId: 'Ada@Acme.test',
      issuer: idp.entityId,
      assertionId: expect.stringMatching(/^_/),
    });
  });

  it('reads the email from the NameID when there is no email attribute, and from the attribute when the NameID is opaque', async () => {
    const fromNameId = await provider.validateResponse(connection, await idp.response({ user: { email: 'grace@acme.test', withoutEmailAttribute: true } }));
    expect(fromNameId).toMatchObject({ email: 'grace@acme.test', name: null });
    const fromAttribute = await provider.validateResponse(connection, await idp.response({ user: { email: 'alan@acme.test', nameId: 'u-4711' } }));
    expect(fromAttribute).toMatchObject({ email: 'alan@acme.test', nameId: 'u-4711' });
    await expect(refusal(provider.validateResponse(connection, await idp.response({ user: { email: 'x@acme.test', nameId: 'u-1', withoutEmailAttribute: true } })))).resolves.toEqual([
      
      'no_email',
      SAML_REFUSALS.no_email,
    ]);
  });

  it('accepts the same IdP configured by entry point and certificate', async () => {
    const manual = resolveSamlConnection({ entryPoint: idp.ssoUrl, certificate: idp.certificate }, { allowHttpHosts: parseAllowHttpHosts(new URL(idp.url).host) });
    await expect(provider.validateResponse(manual, await idp.response())).resolves.toMatchObject({ email: 'ada@acme.test' });
  });

  it.each([
    ['an assertion altered after signing', () => idp.badSignature(), 'signature'],
    ['a response signed by another key', () => idp.signedByStranger(), 'signature'],
    ['another audience', () => idp.wrongAudience(), 'audience'],
    ['another recipient', () => idp.wrongRecipient(), 'recipient'],
    ['another recipient in the signed assertion only', () => idp.response({ recipient: 'https://evil.example/acs' }), 'recipient'],
    ['another destination on the response only', () => idp.response({ destination: 'https://evil.example/acs' }), 'recipient'],
    ['an expired assertion', () => idp.expired(), 'expired'],
    ['an assertion not yet valid', () => idp.notYetValid(), 'not_yet_valid'],
  ] as const)('refuses %s', async (_case, make, reason) => {
    await expect(refusal(provider.validateResponse(connection, await make()))).resolves.toEqual([reason, SAML_REFUSALS[reason]]);
  });

  it('refuses an assertion whose id was used before, until it expires', async () => {
    const response = await idp.response();
    await expect(provider.validateResponse(connection, response)).resolves.toMatchObject({ email: 'ada@acme.test' });
    await expect(refusal(provider.validateResponse(connection, response))).resolves.toEqual(['replayed', SAML_REFUSALS.replayed]);
    // A new response reusing the assertion id is refused too, and the id is kept at least until the assertion's expiry.
    const assertionId = '_reused-assertion-id';
    await provider.validateResponse(connection, await idp.response({ assertionId }));
    await expect(refusal(provider.validateResponse(connection, await idp.response({ assertionId })))).resolves.toEqual(['replayed', SAML_REFUSALS.replayed]);
    const keys = await redis.client.keys(`${redis.prefix}:sso:saml:assertion:*`);
    const ttls = await Promise.all(keys.map((k) => redis.client.pttl(k)));
    expect(ttls.every((ttl) => ttl > 5 * 60_000 && ttl <= 6 * 60_000 + 1000)).toBe(true);
  });

  it('refuses garbage as malformed, never throwing anything else', async () => {
    for (const junk of ['', 'not base64 !!', Buffer.from('<nope/>').toString('base64'), Buffer.from('<a><b').toString('base64'), 42, null]) {
      await expect(refusal(provider.validateResponse(connection, junk))).resolves.toEqual([expect.any(String), expect.any(String)]);
    }
  });

  it('refuses a response from an IdP other than the metadata names', async () => {
    const other = await SamlTestIdp.start({ ...SP, user: { email: 'ada@acme.test' } });
    try {
      const otherConnection = resolveSamlConnection({ idpMetadataXml: other.metadataXml }, { allowHttpHosts: parseAllowHttpHosts(new URL(other.url).host) });
      // Same signing key (one key pair per test process), different entity id: the Issuer check refuses it.
      await expect(refusal(provider.validateResponse({ ...otherConnection, certificates: connection.certificates }, await idp.response()))).resolves.toEqual([
        
        'issuer',
        SAML_REFUSALS.issuer,
      ]);
    } finally {
      await other.close();
    }
  });

  it('sends the browser to the IdP with an AuthnRequest and the relay state, and the IdP answers an auto-post form to our ACS', async () => {
    const redirectUrl = await provider.authorizeUrl(connection, 'state-123');
    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('state-123');
    const form = await idp.followSignIn(redirectUrl);
    expect(form).toEqual({ action: SP.acsUrl, SAMLResponse: expect.any(String), RelayState: 'state-123' });
    await expect(provider.validateResponse(connection, form.SAMLResponse)).resolves.toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace' });
  });
});
