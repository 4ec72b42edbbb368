import { SsoConnectionRow } from './sso.repository';
import { SsoTypeName } from './sso.dto';

/** One sign-in being started: the state the callback must bring back, the email typed, where the IdP answers. */
export interface SsoFlow {
  state: string;
  email: string;
  /** The absolute URL of this provider's callback (`/auth/sso/oidc/callback`, `/auth/sso/saml/acs`). */
  callbackUrl: string;
}

/** Where to send the browser, and what the provider keeps server-side for the callback (with the state, in Redis). */
export interface SsoStart {
  url: string;
  data: Record<string, string>;
}

/** What the callback received (query or form fields), with what start kept. */
export interface SsoCallback {
  params: Record<string, string>;
  data: Record<string, string>;
  state: string;
  callbackUrl: string;
}

/** The person the identity provider vouches for. */
export interface SsoIdentity {
  email: string;
  /** false only when the provider says the email is not verified (OIDC `email_verified: false`). */
  emailVerified: boolean;
  name: string | null;
  /** The provider's stable id of the person (OIDC `sub`, SAML NameID). */
  subject: string;
}

/**
 * The seam between the shared SSO core and one protocol (decisions §25). The core finds the
 * organization from the email's verified domain, keeps the state (single use, 10 minutes), and
 * after `finish` checks the email's domain and signs the person in; a provider only speaks its
 * protocol. Failures are SsoFailedError (the IdP's answer refused) or SsoProviderUnavailableError.
 */
export interface SsoProvider {
  readonly type: SsoTypeName;
  start(connection: SsoConnectionRow, flow: SsoFlow): Promise<SsoStart>;
  finish(connection: SsoConnectionRow, callback: SsoCallback): Promise<SsoIdentity>;
  /** SAML: our service provider metadata XML, naming `callbackUrl` as the ACS (OIDC has none). */
  metadata?(callbackUrl: string): string;
}

/** The DI token of the SAML provider (libs/sso/src/saml provides it in SsoModule); OIDC is the OidcProvider class. */
export const SAML_SSO_PROVIDER = Symbol('SAML_SSO_PROVIDER');
