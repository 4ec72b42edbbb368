import { RedisService } from '@dl/platform/redis';
import { parseAllowHttpHosts } from '../sso-urls';
import { SamlTestIdp, useTestEnv } from '@dl/testing';
import { resolveSamlConnection, SamlConnection } from './saml-connection';
import { SamlServiceProvider } from './saml-service-provider';
import { SAML_REFUSALS, SamlResponseError } from './saml.errors';

const SP = { spEntityId: 'https://links.example/auth/sso/saml/metadata', acsUrl: 'https://links.example/auth/sso/saml/acs' };

describe(SamlServiceProvider.name, () => {
  const t = useTestEnv({}, async (env, own) => {
    const redis = own(new RedisService(env.config));
    await redis.onModuleInit();
    const idp = own(await SamlTestIdp.start({ ...SP, user: { email: 'Ada@Acme.test', name: 'Ada Lovelace' } }));
    const connection = resolveSamlConnection({ idpMetadataXml: idp.metadataXml }, { allowHttpHosts: parseAllowHttpHosts(new URL(idp.url).host) });
    return { redis, idp, provider: new SamlServiceProvider(redis, SP), connection };
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (err: unknown) => (err instanceof SamlResponseError ? [err.reason, err.message] : err),
    );

  it('accepts a signed response: the email (lower-cased) and the name', async () => {
    const identity = await t.provider.validateResponse(t.connection, await t.idp.response());
    expect(identity).toEqual({
      email: 'ada@acme.test',
      name: 'Ada Lovelace',
      nameId: 'Ada@Acme.test',
      issuer: t.idp.entityId,
      assertionId: expect.stringMatching(/^_/),
    });
  });

  it('reads the email from the NameID when there is no email attribute, and from the attribute when the NameID is opaque', async () => {
    const fromNameId = await t.provider.validateResponse(t.connection, await t.idp.response({ user: { email: 'grace@acme.test', withoutEmailAttribute: true } }));
    expect(fromNameId).toMatchObject({ email: 'grace@acme.test', name: null });
    const fromAttribute = await t.provider.validateResponse(t.connection, await t.idp.response({ user: { email: 'alan@acme.test', nameId: 'u-4711' } }));
    expect(fromAttribute).toMatchObject({ email: 'alan@acme.test', nameId: 'u-4711' });
    await expect(refusal(t.provider.validateResponse(t.connection, await t.idp.response({ user: { email: 'x@acme.test', nameId: 'u-1', withoutEmailAttribute: true } })))).resolves.toEqual([
      
      'no_email',
      SAML_REFUSALS.no_email,
    ]);
  });

  it('accepts the same IdP configured by entry point and certificate', async () => {
    const manual = resolveSamlConnection({ entryPoint: t.idp.ssoUrl, certificate: t.idp.certificate }, { allowHttpHosts: parseAllowHttpHosts(new URL(t.idp.url).host) });
    await expect(t.provider.validateResponse(manual, await t.idp.response())).resolves.toMatchObject({ email: 'ada@acme.test' });
  });

  it.each([
    ['an assertion altered after signing', () => t.idp.badSignature(), 'signature'],
    ['a response signed by another key', () => t.idp.signedByStranger(), 'signature'],
    ['another audience', () => t.idp.wrongAudience(), 'audience'],
    ['another recipient', () => t.idp.wrongRecipient(), 'recipient'],
    ['another recipient in the signed assertion only', () => t.idp.response({ recipient: 'https://evil.example/acs' }), 'recipient'],
    ['another destination on the response only', () => t.idp.response({ destination: 'https://evil.example/acs' }), 'recipient'],
    ['an expired assertion', () => t.idp.expired(), 'expired'],
    ['an assertion not yet valid', () => t.idp.notYetValid(), 'not_yet_valid'],
  ] as const)('refuses %s', async (_case, make, reason) => {
    await expect(refusal(t.provider.validateResponse(t.connection, await make()))).resolves.toEqual([reason, SAML_REFUSALS[reason]]);
  });

  it('refuses an assertion whose id was used before, until it expires', async () => {
    const response = await t.idp.response();
    await expect(t.provider.validateResponse(t.connection, response)).resolves.toMatchObject({ email: 'ada@acme.test' });
    await expect(refusal(t.provider.validateResponse(t.connection, response))).resolves.toEqual(['replayed', SAML_REFUSALS.replayed]);
    // A new response reusing the assertion id is refused too, and the id is kept at least until the assertion's expiry.
    const assertionId = '_reused-assertion-id';
    await t.provider.validateResponse(t.connection, await t.idp.response({ assertionId }));
    await expect(refusal(t.provider.validateResponse(t.connection, await t.idp.response({ assertionId })))).resolves.toEqual(['replayed', SAML_REFUSALS.replayed]);
    const keys = await t.redis.client.keys(`${t.redis.prefix}:sso:saml:assertion:*`);
    const ttls = await Promise.all(keys.map((k) => t.redis.client.pttl(k)));
    expect(ttls.every((ttl) => ttl > 5 * 60_000 && ttl <= 6 * 60_000 + 1000)).toBe(true);
  });

  it('refuses garbage as malformed, never throwing anything else', async () => {
    for (const junk of ['', 'not base64 !!', Buffer.from('<nope/>').toString('base64'), Buffer.from('<a><b').toString('base64'), 42, null]) {
      await expect(refusal(t.provider.validateResponse(t.connection, junk))).resolves.toEqual([expect.any(String), expect.any(String)]);
    }
  });

  it('refuses a response from an IdP other than the metadata names', async () => {
    const other = await SamlTestIdp.start({ ...SP, user: { email: 'ada@acme.test' } });
    try {
      const otherConnection = resolveSamlConnection({ idpMetadataXml: other.metadataXml }, { allowHttpHosts: parseAllowHttpHosts(new URL(other.url).host) });
      // Same signing key (one key pair per test process), different entity id: the Issuer check refuses it.
      await expect(refusal(t.provider.validateResponse({ ...otherConnection, certificates: t.connection.certificates }, await t.idp.response()))).resolves.toEqual([
        
        'issuer',
        SAML_REFUSALS.issuer,
      ]);
    } finally {
      await other.close();
    }
  });

  it('sends the browser to the IdP with an AuthnRequest and the relay state, and the IdP answers an auto-post form to our ACS', async () => {
    const redirectUrl = await t.provider.authorizeUrl(t.connection, 'state-123');
    const url = new URL(redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(t.idp.ssoUrl);
    expect(url.searchParams.get('RelayState')).toBe('state-123');
    const form = await t.idp.followSignIn(redirectUrl);
    expect(form).toEqual({ action: SP.acsUrl, SAMLResponse: expect.any(String), RelayState: 'state-123' });
    await expect(t.provider.validateResponse(t.connection, form.SAMLResponse)).resolves.toMatchObject({ email: 'ada@acme.test', name: 'Ada Lovelace' });
  });
});
