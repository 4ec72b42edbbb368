import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import type * as Samlify from 'samlify';
import { samlTestKeys, SamlTestKeyPair } from './saml-idp-keys';

type SamlifyLib = typeof Samlify;
let loaded: SamlifyLib | undefined;

/**
 * samlify, loaded on first use (half a second: not for every test that imports @dl/testing). The
 * test identity provider accepts any XML shape: samlify asks for a schema validator before it
 * parses anything, and the service provider under test (node-saml) is what these tests judge.
 */
function samlify(): SamlifyLib {
  if (!loaded) {
    loaded = require('samlify') as SamlifyLib;
    loaded.setSchemaValidator({ validate: () => Promise.resolve('skipped') });
  }
  return loaded;
}

/** The person the test IdP "logs in". */
export interface SamlIdpUser {
  email: string;
  name?: string;
  /** The Subject's NameID (the email unless set); a non-email NameID makes the email attribute the only source. */
  nameId?: string;
  /** Leave the `email` attribute out (the NameID then has to carry the address). */
  withoutEmailAttribute?: boolean;
}

/** What a crafted response says instead of the truth (each one makes a bad case). */
export interface SamlResponseOverrides {
  audience?: string;
  recipient?: string;
  destination?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  assertionId?: string;
  inResponseTo?: string;
  /** Signed by a key the SP does not trust (its certificate travels in KeyInfo all the same). */
  signedByStranger?: boolean;
  /** Signed correctly, then the email in the signed assertion is replaced by this one. */
  alterEmailAfterSigning?: string;
  user?: SamlIdpUser;
}

/** An auto-post form as the browser would submit it to the ACS. */
export interface SamlPostedForm {
  action: string;
  SAMLResponse: string;
  RelayState: string;
}

const RESPONSE_TEMPLATE =
  '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{ID}" Version="2.0" IssueInstant="{IssueInstant}" Destination="{Destination}" InResponseTo="{InResponseTo}">' +
  '<saml:Issuer>{Issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="{StatusCode}"/></samlp:Status>' +
  '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="{AssertionID}" Version="2.0" IssueInstant="{IssueInstant}">' +
  '<saml:Issuer>{Issuer}</saml:Issuer>' +
  '<saml:Subject><saml:NameID Format="{NameIDFormat}">{NameID}</saml:NameID>' +
  '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="{SubjectConfirmationDataNotOnOrAfter}" Recipient="{SubjectRecipient}" InResponseTo="{InResponseTo}"/></saml:SubjectConfirmation></saml:Subject>' +
  '<saml:Conditions NotBefore="{ConditionsNotBefore}" NotOnOrAfter="{ConditionsNotOnOrAfter}"><saml:AudienceRestriction><saml:Audience>{Audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>' +
  '<saml:AuthnStatement AuthnInstant="{IssueInstant}" SessionIndex="{AssertionID}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>' +
  '{AttributeStatement}</saml:Assertion></samlp:Response>';

const ATTRIBUTE =
  '<saml:Attribute Name="{Name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string">{Value}</saml:AttributeValue></saml:Attribute>';

/**
 * A SAML 2.0 identity provider for tests, built with samlify, on a loopback HTTP server:
 * `GET /metadata` (its metadata XML), `GET /sso?SAMLRequest=&RelayState=` (HTTP-Redirect binding:
 * "logs in" `user` and answers an auto-post form of a signed response to the ACS URL), and helpers
 * that craft responses the service provider must refuse.
 */
export class SamlTestIdp {
  user: SamlIdpUser;
  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly keys: { idp: SamlTestKeyPair; stranger: SamlTestKeyPair },
    private readonly sp: { entityId: string; acsUrl: string },
    user: SamlIdpUser,
  ) {
    this.user = user;
  }

  /** Starts an IdP for the SP `spEntityId` whose ACS is `acsUrl`. */
  static async start(options: { spEntityId: string; acsUrl: string; user: SamlIdpUser }): Promise<SamlTestIdp> {
    const keys = await samlTestKeys();
    let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
    const server = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const idp = new SamlTestIdp(server, url, keys, { entityId: options.spEntityId, acsUrl: options.acsUrl }, options.user);
    handler = (req, res) => void idp.handle(req, res);
    return idp;
  }

  get entityId(): string {
    return `${this.url}/metadata`;
  }
  get ssoUrl(): string {
    return `${this.url}/sso`;
  }
  get metadataUrl(): string {
    return `${this.url}/metadata`;
  }
  /** The IdP's signing certificate, PEM (what an admin pastes as `certificate`). */
  get certificate(): string {
    return this.keys.idp.certificate;
  }
  /** The IdP's metadata (what an admin pastes as `idpMetadataXml`). */
  get metadataXml(): string {
    return this.entity(this.keys.idp).getMetadata();
  }

  /** A signed, valid SAMLResponse (base64) for the user, or one altered by `overrides`. */
  async response(overrides: SamlResponseOverrides = {}): Promise<string> {
    const user = overrides.user ?? this.user;
    const now = new Date();
    const inFiveMinutes = new Date(now.getTime() + 5 * 60_000);
    const notOnOrAfter = (overrides.notOnOrAfter ?? inFiveMinutes).toISOString();
    const signer = this.entity(overrides.signedByStranger ? this.keys.stranger : this.keys.idp);
    const id = `_${randomUUID()}`;
    const assertionId = overrides.assertionId ?? `_${randomUUID()}`;
    const attributes = [
      ...(user.withoutEmailAttribute ? [] : [{ Name: 'email', Value: user.email }]),
      ...(user.name ? [{ Name: 'name', Value: user.name }] : []),
    ];
    const values = {
      ID: id,
      AssertionID: assertionId,
      Destination: overrides.destination ?? this.sp.acsUrl,
      Audience: overrides.audience ?? this.sp.entityId,
      SubjectRecipient: overrides.recipient ?? this.sp.acsUrl,
      Issuer: this.entityId,
      IssueInstant: now.toISOString(),
      StatusCode: samlify().Constants.StatusCode.Success,
      ConditionsNotBefore: (overrides.notBefore ?? now).toISOString(),
      ConditionsNotOnOrAfter: notOnOrAfter,
      SubjectConfirmationDataNotOnOrAfter: notOnOrAfter,
      NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      NameID: user.nameId ?? user.email,
      InResponseTo: overrides.inResponseTo ?? null,
    };
    const statement = attributes.length
      ? `<saml:AttributeStatement>${attributes.map((a) => samlify().SamlLib.replaceTagsByValue(ATTRIBUTE, a)).join('')}</saml:AttributeStatement>`
      : '';
    const { context } = await signer.createLoginResponse(this.spEntity(), { extract: {} }, 'post', { email: user.email }, {
      customTagReplacement: () => ({ id, context: samlify().SamlLib.replaceTagsByValue(RESPONSE_TEMPLATE.replace('{AttributeStatement}', statement), values) }),
    });
    if (!overrides.alterEmailAfterSigning) return context;
    const xml = Buffer.from(context, 'base64').toString('utf8');
    return Buffer.from(xml.split(user.email).join(overrides.alterEmailAfterSigning)).toString('base64');
  }

  /** The assertion is altered after signing: its signature no longer verifies. */
  badSignature(): Promise<string> {
    return this.response({ alterEmailAfterSigning: `evil-${this.user.email}` });
  }
  /** Signed with a key that is not the IdP's. */
  signedByStranger(): Promise<string> {
    return this.response({ signedByStranger: true });
  }
  wrongAudience(): Promise<string> {
    return this.response({ audience: 'https://another-sp.example/saml' });
  }
  wrongRecipient(): Promise<string> {
    const elsewhere = 'https://another-sp.example/acs';
    return this.response({ recipient: elsewhere, destination: elsewhere });
  }
  expired(): Promise<string> {
    const hourAgo = Date.now() - 3600_000;
    return this.response({ notBefore: new Date(hourAgo - 300_000), notOnOrAfter: new Date(hourAgo) });
  }
  notYetValid(): Promise<string> {
    const inAnHour = Date.now() + 3600_000;
    return this.response({ notBefore: new Date(inAnHour), notOnOrAfter: new Date(inAnHour + 300_000) });
  }

  /**
   * What a browser does with the SP's redirect to this IdP: GETs the SSO URL (with the SP's
   * SAMLRequest and RelayState) and reads the auto-post form it answers.
   */
  async followSignIn(redirectUrl: string): Promise<SamlPostedForm> {
    const res = await fetch(redirectUrl, { redirect: 'manual' });
    const html = await res.text();
    if (res.status !== 200) throw new Error(`test IdP answered ${res.status}: ${html}`);
    return readAutoPostForm(html);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    try {
      if (url.pathname === '/metadata') {
        res.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(this.metadataXml);
        return;
      }
      if (url.pathname === '/sso') {
        const query = Object.fromEntries(url.searchParams);
        const { extract } = await this.entity(this.keys.idp).parseLoginRequest(this.spEntity(), 'redirect', {
          query,
          octetString: url.search.slice(1),
        });
        const request = (extract as { request?: { id?: string; assertionConsumerServiceUrl?: string } }).request ?? {};
        const acs = request.assertionConsumerServiceUrl || this.sp.acsUrl;
        const samlResponse = await this.response({ inResponseTo: request.id });
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(autoPostForm(acs, samlResponse, query.RelayState ?? ''));
        return;
      }
      res.writeHead(404).end('not found');
    } catch (err) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`test IdP refused the request: ${(err as Error).message}`);
    }
  }

  private readonly entities = new Map<SamlTestKeyPair, Samlify.IdentityProviderInstance>();
  private spEntityCache?: Samlify.ServiceProviderInstance;

  private entity(keys: SamlTestKeyPair): Samlify.IdentityProviderInstance {
    const known = this.entities.get(keys);
    if (known) return known;
    const { Constants, IdentityProvider } = samlify();
    const entity = IdentityProvider({
      entityID: this.entityId,
      privateKey: keys.privateKey,
      signingCert: keys.certificate,
      wantAuthnRequestsSigned: false,
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [
        { Binding: Constants.namespace.binding.redirect, Location: this.ssoUrl },
        { Binding: Constants.namespace.binding.post, Location: this.ssoUrl },
      ],
      singleLogoutService: [{ Binding: Constants.namespace.binding.redirect, Location: `${this.url}/slo` }],
    });
    this.entities.set(keys, entity);
    return entity;
  }

  private spEntity(): Samlify.ServiceProviderInstance {
    const { Constants, ServiceProvider } = samlify();
    this.spEntityCache ??= ServiceProvider({
      entityID: this.sp.entityId,
      wantAssertionsSigned: true,
      assertionConsumerService: [{ Binding: Constants.namespace.binding.post, Location: this.sp.acsUrl }],
    });
    return this.spEntityCache;
  }
}

/**
 * What an identity provider (samlify) reads from a service provider's metadata XML (samlify
 * parses one element as an object and several as an array: both come back as arrays).
 */
export function readSpMetadata(xml: string): { entityId: string; acs: Array<{ binding: string; location: string }>; nameIdFormats: string[]; wantAssertionsSigned: boolean } {
  const { ServiceProvider } = samlify();
  const meta = ServiceProvider({ metadata: xml }).entityMeta;
  const parsed = meta.meta as { assertionConsumerService?: { binding: string; location: string } | Array<{ binding: string; location: string }> };
  return {
    entityId: meta.getEntityID(),
    acs: ([] as Array<{ binding: string; location: string }>).concat(parsed.assertionConsumerService ?? []).map(({ binding, location }) => ({ binding, location })),
    nameIdFormats: ([] as string[]).concat(meta.getNameIDFormat()),
    wantAssertionsSigned: meta.isWantAssertionsSigned(),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function autoPostForm(action: string, samlResponse: string, relayState: string): string {
  return (
    `<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(action)}">` +
    `<input type="hidden" name="SAMLResponse" value="${escapeHtml(samlResponse)}">` +
    `<input type="hidden" name="RelayState" value="${escapeHtml(relayState)}">` +
    '<noscript><button type="submit">Continue</button></noscript></form></body></html>'
  );
}

/** The action and fields of the IdP's auto-post form. */
export function readAutoPostForm(html: string): SamlPostedForm {
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
  const field = (name: string) => unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '');
  return { action: unescape(/action="([^"]*)"/.exec(html)?.[1] ?? ''), SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') };
}
