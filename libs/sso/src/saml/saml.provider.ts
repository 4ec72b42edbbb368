import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { RedisService } from '@dl/platform/redis';
import { SsoFailedError } from '../sso.errors';
import { SsoCallback, SsoFlow, SsoIdentity, SsoProvider, SsoStart } from '../sso-provider';
import { SsoConnectionRow } from '../sso.repository';
import { parseAllowHttpHosts } from '../sso-urls';
import { resolveSamlConnection, SamlConnection } from './saml-connection';
import { SamlServiceProvider } from './saml-service-provider';
import { SamlResponseError } from './saml.errors';

/** Our SAML entity id (the audience IdPs put in assertions), under the api's public URL. */
export const SAML_SP_ENTITY_PATH = '/auth/sso/saml/metadata';

/**
 * SAML 2.0 behind the SSO core's seam (decisions §25): start sends the browser to the IdP with an
 * AuthnRequest whose RelayState is the core's state; finish validates the posted SAMLResponse
 * (SamlServiceProvider) and answers the person it vouches for. A refused response is
 * SsoFailedError naming the check that failed.
 */
@Injectable()
export class SamlSsoProvider implements SsoProvider {
  readonly type = 'saml' as const;
  private readonly allowHttpHosts: ReadonlySet<string>;
  private readonly spEntityId: string;

  constructor(
    private readonly redis: RedisService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.allowHttpHosts = parseAllowHttpHosts(config.SSO_ALLOW_HTTP_HOSTS);
    this.spEntityId = `${config.API_PUBLIC_URL.replace(/\/+$/, '')}${SAML_SP_ENTITY_PATH}`;
  }

  async start(row: SsoConnectionRow, flow: SsoFlow): Promise<SsoStart> {
    const url = await this.sp(flow.callbackUrl).authorizeUrl(this.connection(row), flow.state);
    return { url, data: {} };
  }

  async finish(row: SsoConnectionRow, callback: SsoCallback): Promise<SsoIdentity> {
    try {
      const identity = await this.sp(callback.callbackUrl).validateResponse(this.connection(row), callback.params.SAMLResponse);
      return { email: identity.email, emailVerified: true, name: identity.name, subject: identity.nameId };
    } catch (err) {
      if (err instanceof SamlResponseError) throw new SsoFailedError(err.message);
      throw err;
    }
  }

  metadata(callbackUrl: string): string {
    return this.sp(callbackUrl).metadata();
  }

  private sp(acsUrl: string): SamlServiceProvider {
    return new SamlServiceProvider(this.redis, { spEntityId: this.spEntityId, acsUrl });
  }

  private connection(row: SsoConnectionRow): SamlConnection {
    return resolveSamlConnection(row, { allowHttpHosts: this.allowHttpHosts });
  }
}
