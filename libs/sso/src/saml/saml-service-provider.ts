import { createHash } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { generateServiceProviderMetadata, Profile, SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import type { RedisService } from '@dl/platform/redis';
import { SamlConnection } from './saml-connection';
import { SamlRefusal, SamlResponseError } from './saml.errors';

/** Who we are to identity providers: our entity id (the audience) and our ACS URL (the recipient). */
export interface SamlServiceProviderOptions {
  spEntityId: string;
  acsUrl: string;
  /** Clock difference tolerated on NotBefore / NotOnOrAfter. */
  clockSkewMs?: number;
}

/** The person a valid SAML response signs in. */
export interface SamlIdentity {
  /** Lower-cased: the email attribute, or the NameID when it is an email address. */
  email: string;
  name: string | null;
  nameId: string;
  issuer: string;
  assertionId: string;
}

/** The NameID format our AuthnRequest asks for and our metadata names. */
const NAME_ID_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Either the whole response or the assertion must be signed, so the metadata does not demand signed assertions. */
const WANT_ASSERTIONS_SIGNED = false;

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = ['name', 'displayName', 'urn:oid:2.16.840.1.113730.3.1.241', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name'];
const GIVEN_NAME = ['givenName', 'firstName', 'urn:oid:2.5.4.42', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname'];
const SURNAME = ['sn', 'surname', 'lastName', 'urn:oid:2.5.4.4', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname'];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;
const MAX_RESPONSE_CHARS = 1024 * 1024;
/** A replayed assertion is remembered at least this long, whatever its own expiry says. */
const MIN_REPLAY_TTL_MS = 60_000;
/** ...and at most this long (an assertion valid for longer is still refused after this). */
const MAX_REPLAY_TTL_MS = 24 * 3600_000;

/**
 * The SAML 2.0 service provider (decisions §25), on @node-saml/node-saml: it builds the
 * AuthnRequest for a connection and validates the SAMLResponse the IdP posts back. A response is
 * accepted only when the response or its assertion is signed by the IdP's certificate, the
 * assertion's Issuer is the IdP's entity id (when its metadata names one), it is for our entity id (audience) and our ACS URL (recipient, and the response's
 * Destination when present), it is inside its NotBefore/NotOnOrAfter window, and its id was not
 * used before (ids are kept in Redis until the assertion expires).
 */
export class SamlServiceProvider {
  constructor(
    private readonly redis: Pick<RedisService, 'client' | 'key'>,
    private readonly options: SamlServiceProviderOptions,
  ) {}

  /** The IdP's URL with our AuthnRequest (HTTP-Redirect binding), carrying `relayState` back to the ACS untouched. */
  authorizeUrl(connection: SamlConnection, relayState: string): Promise<string> {
    return this.saml(connection).getAuthorizeUrlAsync(relayState, undefined, {});
  }

  /**
   * Our SP metadata XML for IdP administrators: entity id, the ACS (HTTP-POST) and the NameID
   * format, as node-saml generates it from the same options the AuthnRequest is built with.
   */
  metadata(): string {
    return generateServiceProviderMetadata({
      issuer: this.options.spEntityId,
      callbackUrl: this.options.acsUrl,
      identifierFormat: NAME_ID_FORMAT,
      wantAssertionsSigned: WANT_ASSERTIONS_SIGNED,
    });
  }

  /** The identity in a posted `SAMLResponse` (base64), or a SamlResponseError saying why not. */
  async validateResponse(connection: SamlConnection, samlResponse: unknown): Promise<SamlIdentity> {
    if (typeof samlResponse !== 'string' || !samlResponse || samlResponse.length > MAX_RESPONSE_CHARS) {
      throw new SamlResponseError('malformed');
    }
    const { profile } = await this.saml(connection)
      .validatePostResponseAsync({ SAMLResponse: samlResponse })
      .catch((err: unknown) => {
        throw new SamlResponseError(refusalOf(err));
      });
    if (!profile) throw new SamlResponseError('malformed');
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
    if (!assertion) throw new SamlResponseError('malformed');
    // node-saml checks the Issuer of logout messages only: the signed assertion's is checked here.
    if (connection.idpEntityId && profile.issuer !== connection.idpEntityId) throw new SamlResponseError('issuer');
    const expiresAtMs = this.checkSubject(assertion, profile.getSamlResponseXml?.() ?? '');
    const identity = identityOf(profile, assertion);
    await this.refuseReplay(identity, expiresAtMs);
    return identity;
  }

  private saml(connection: SamlConnection): SAML {
    return new SAML({
      entryPoint: connection.entryPoint,
      idpCert: connection.certificates,
      issuer: this.options.spEntityId,
      audience: this.options.spEntityId,
      callbackUrl: this.options.acsUrl,
      // Either the whole response or the assertion must carry a valid signature (node-saml then
      // reads the assertion from the signed XML only).
      wantAuthnResponseSigned: false,
      wantAssertionsSigned: WANT_ASSERTIONS_SIGNED,
      acceptedClockSkewMs: this.options.clockSkewMs ?? 60_000,
      // RelayState carries the sign-in's state; replay is refused by assertion id below.
      validateInResponseTo: ValidateInResponseTo.never,
      identifierFormat: NAME_ID_FORMAT,
      disableRequestedAuthnContext: true,
    });
  }

  /**
   * The bearer SubjectConfirmation must name our ACS as its Recipient and be unexpired, and the
   * response's Destination (when given) must be our ACS. Answers when the assertion expires.
   */
  private checkSubject(assertion: XmlNode, responseXml: string): number {
    const destination = rootAttribute(responseXml, 'Destination');
    if (destination && destination !== this.options.acsUrl) throw new SamlResponseError('recipient');
    const skew = this.options.clockSkewMs ?? 60_000;
    const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
      .filter((c) => attr(c, 'Method') === 'urn:oasis:names:tc:SAML:2.0:cm:bearer')
      .map((c) => children(c, 'SubjectConfirmationData')[0])
      .filter((d): d is XmlNode => !!d);
    const forUs = confirmations.filter((d) => attr(d, 'Recipient') === this.options.acsUrl);
    if (!forUs.length) throw new SamlResponseError('recipient');
    const now = Date.now();
    const live = forUs.map((d) => Date.parse(attr(d, 'NotOnOrAfter') ?? '')).filter((t) => Number.isFinite(t) && now - skew < t);
    if (!live.length) throw new SamlResponseError('expired');
    const conditionsEnd = Date.parse(attr(children(assertion, 'Conditions')[0], 'NotOnOrAfter') ?? '');
    return Math.max(...live, Number.isFinite(conditionsEnd) ? conditionsEnd : 0);
  }

  /** Keeps the assertion id until its expiry (plus skew); a second use is refused. */
  private async refuseReplay(identity: SamlIdentity, expiresAtMs: number): Promise<void> {
    const ttl = Math.min(MAX_REPLAY_TTL_MS, Math.max(MIN_REPLAY_TTL_MS, expiresAtMs - Date.now() + (this.options.clockSkewMs ?? 60_000)));
    const id = createHash('sha256').update(`${identity.issuer}\n${identity.assertionId}`).digest('hex');
    const fresh = await this.redis.client.set(this.redis.key('sso', 'saml', 'assertion', id), '1', 'PX', ttl, 'NX');
    if (fresh !== 'OK') throw new SamlResponseError('replayed');
  }
}

type XmlNode = { $?: Record<string, string>; _?: string; [child: string]: unknown };

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function attr(node: XmlNode | undefined, name: string): string | undefined {
  return node?.$?.[name];
}

function rootAttribute(xml: string, name: string): string | null {
  if (!xml) return null;
  const doc = new DOMParser({ errorHandler: { warning: () => undefined, error: () => undefined, fatalError: () => undefined } }).parseFromString(xml, 'text/xml');
  return doc?.documentElement?.getAttribute(name) || null;
}

function identityOf(profile: Profile, assertion: XmlNode): SamlIdentity {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const first = (names: string[]) =>
    names
      .map((n) => attributes[n])
      .map((v) => (Array.isArray(v) ? v[0] : v))
      .find((v): v is string => typeof v === 'string' && v.trim() !== '')
      ?.trim();
  const nameId = profile.nameID ?? '';
  const email = (first(EMAIL_ATTRIBUTES) ?? (EMAIL.test(nameId) ? nameId : '')).toLowerCase();
  if (!EMAIL.test(email)) throw new SamlResponseError('no_email');
  const given = first(GIVEN_NAME);
  const surname = first(SURNAME);
  const name = first(NAME_ATTRIBUTES) ?? ([given, surname].filter(Boolean).join(' ') || null);
  const assertionId = attr(assertion, 'ID');
  if (!assertionId) throw new SamlResponseError('malformed');
  return { email, name: name ? name.slice(0, 200) : null, nameId, issuer: profile.issuer ?? '', assertionId };
}

/** node-saml's error messages, as our refusal reasons. */
function refusalOf(err: unknown): SamlRefusal {
  if (err instanceof SamlStatusError) return 'refused';
  const message = err instanceof Error ? err.message : '';
  if (/signature/i.test(message)) return 'signature';
  if (/audience|AudienceRestriction/i.test(message)) return 'audience';
  if (/issuer/i.test(message)) return 'issuer';
  if (/expired/i.test(message)) return 'expired';
  if (/not yet valid/i.test(message)) return 'not_yet_valid';
  return 'malformed';
}
