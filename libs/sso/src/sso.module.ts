import { Global, Module } from '@nestjs/common';
import { SsoEnforcement } from '@dl/auth';
import { DnsVerifier } from '@dl/domains';
import { OidcProvider } from './oidc/oidc.provider';
import { SamlSsoProvider } from './saml/saml.provider';
import { SAML_SSO_PROVIDER } from './sso-provider';
import { SsoRepository } from './sso.repository';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoStateStore } from './sso-state';

/**
 * Single sign-on (decisions §25). Global so that libs/auth's password routes find the
 * SsoEnforcement it provides. A protocol plugs in as an SsoProvider: OIDC (libs/sso/src/oidc) and
 * SAML (libs/sso/src/saml, as SAML_SSO_PROVIDER). Needs identity (AuthModule), Redis and the audit recorder.
 */
@Global()
@Module({
  providers: [
    SsoRepository,
    SsoStateStore,
    SsoSettingsService,
    SsoSignInService,
    OidcProvider,
    { provide: SAML_SSO_PROVIDER, useClass: SamlSsoProvider },
    DnsVerifier,
    { provide: SsoEnforcement, useExisting: SsoSignInService },
  ],
  exports: [SsoSettingsService, SsoSignInService, SsoEnforcement],
})
export class SsoModule {}
