import { Inject, Injectable, Logger } from '@nestjs/common';
import * as oidc from 'openid-client';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { SsoFailedError, SsoProviderUnavailableError } from '../sso.errors';
import { SsoCallback, SsoFlow, SsoIdentity, SsoProvider, SsoStart } from '../sso-provider';
import { SsoConnectionRow } from '../sso.repository';
import { SecretBox } from '../sso-secret';
import { parseAllowHttpHosts } from '../sso-urls';
import { guardedFetch } from './guarded-fetch';

/** How long a discovered configuration (and the JWKS it caches) is reused. */
const CONFIGURATION_TTL_MS = 10 * 60_000;
/** Discovery, token and JWKS requests give up after this long. */
const REQUEST_TIMEOUT_S = 10;

/**
 * OpenID Connect through `openid-client` (decisions §25): authorization code with PKCE (S256),
 * `state` and `nonce` checked, and the ID token's signature checked against the provider's
 * JWKS (non-repudiation checks on), with its issuer, audience and expiry. The client
 * authenticates with client_secret_basic, the OIDC default.
 */
@Injectable()
export class OidcProvider implements SsoProvider {
  readonly type = 'oidc' as const;
  private readonly logger = new Logger(OidcProvider.name);
  private readonly box: SecretBox;
  private readonly configurations = new Map<string, { at: number; configuration: Promise<oidc.Configuration> }>();
  private readonly fetch: ReturnType<typeof guardedFetch>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.box = new SecretBox(config.JWT_SECRET);
    this.fetch = guardedFetch(parseAllowHttpHosts(config.SSO_ALLOW_HTTP_HOSTS));
  }

  async start(connection: SsoConnectionRow, flow: SsoFlow): Promise<SsoStart> {
    const configuration = await this.configuration(connection);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: flow.callbackUrl,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce,
      login_hint: flow.email,
    });
    return { url: url.href, data: { codeVerifier, nonce } };
  }

  async finish(connection: SsoConnectionRow, callback: SsoCallback): Promise<SsoIdentity> {
    const configuration = await this.configuration(connection);
    const current = new URL(callback.callbackUrl);
    for (const [k, v] of Object.entries(callback.params)) current.searchParams.set(k, v);
    let claims: Record<string, unknown> & { sub: string };
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: callback.data.codeVerifier,
        expectedState: callback.state,
        expectedNonce: callback.data.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new SsoFailedError('no ID token');
      claims = idToken;
      // Providers that keep the email out of the ID token (OIDC Core 5.4) answer it at userinfo, for the same subject.
      if (typeof idToken.email !== 'string') claims = { ...(await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), sub: idToken.sub };
    } catch (err) {
      throw err instanceof SsoFailedError ? err : this.refused(err);
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : null;
    return { email, emailVerified: claims.email_verified !== false, name, subject: claims.sub };
  }

  /** The provider's discovered configuration, cached per connection version. */
  private configuration(connection: SsoConnectionRow): Promise<oidc.Configuration> {
    if (!connection.issuer || !connection.clientId) return Promise.reject(new SsoProviderUnavailableError('The OIDC connection is incomplete'));
    const key = `${connection.organizationId}:${connection.updatedAt.getTime()}`;
    const cached = this.configurations.get(key);
    if (cached && Date.now() - cached.at < CONFIGURATION_TTL_MS) return cached.configuration;
    for (const k of this.configurations.keys()) if (k.startsWith(`${connection.organizationId}:`)) this.configurations.delete(k);
    const configuration = this.discover(connection);
    this.configurations.set(key, { at: Date.now(), configuration });
    configuration.catch(() => this.configurations.delete(key));
    return configuration;
  }

  private async discover(connection: SsoConnectionRow): Promise<oidc.Configuration> {
    const issuer = new URL(connection.issuer!);
    const secret = connection.clientSecret ? this.box.open(connection.clientSecret) : null;
    if (connection.clientSecret && secret === null) throw new SsoProviderUnavailableError('The OIDC client secret cannot be read; set it again');
    try {
      const configuration = await oidc.discovery(
        issuer,
        connection.clientId!,
        undefined,
        secret ? oidc.ClientSecretBasic(secret) : oidc.None(),
        // http only reaches this point for a host of SSO_ALLOW_HTTP_HOSTS (checked when the setting was saved).
        // The guarded fetch also serves the configuration's later requests (JWKS, token, userinfo).
        { execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [], timeout: REQUEST_TIMEOUT_S, [oidc.customFetch]: this.fetch as oidc.CustomFetch },
      );
      oidc.enableNonRepudiationChecks(configuration);
      return configuration;
    } catch (err) {
      this.logger.warn({ issuer: issuer.href, err: String(err) }, 'OIDC discovery failed');
      throw new SsoProviderUnavailableError('The identity provider could not be reached');
    }
  }

  private refused(err: unknown): Error {
    if (err instanceof oidc.AuthorizationResponseError) return new SsoFailedError(`the identity provider answered ${err.error}`);
    if (err instanceof oidc.ResponseBodyError) return new SsoFailedError(`the token request was refused (${err.error})`);
    const e = err as { code?: string; message?: string; cause?: unknown };
    if (e.code === 'OAUTH_TIMEOUT' || e.code === 'ECONNREFUSED' || (e.message ?? '').includes('fetch failed')) {
      return new SsoProviderUnavailableError('The identity provider could not be reached');
    }
    // openid-client wraps oauth4webapi's precise check (`unexpected JWT "nonce" (nonce) claim value`) as the cause.
    const precise = e.cause instanceof Error ? e.cause.message : undefined;
    this.logger.warn({ err: String(err), cause: precise, code: e.code }, 'OIDC callback refused');
    return new SsoFailedError((precise ?? e.message ?? 'the answer was refused').slice(0, 200));
  }
}
