import { Global, Module } from '@nestjs/common';
import { SsoEnforcement } from '@dl/auth';
import { DnsVerifier } from '@dl/domains';
import { OidcProvider } from './oidc/oidc.provider';
import { SsoRepository } from './sso.repository';
import { SsoSettingsService } from './sso-settings.service';
import { SsoSignInService } from './sso-sign-in.service';
import { SsoStateStore } from './sso-state';

/**
 * Single sign-on (decisions §25). Global so that libs/auth's password routes find the
 * SsoEnforcement it provides. A protocol plugs in as an SsoProvider: OIDC here; SAML by
 * providing SAML_SSO_PROVIDER (libs/sso/src/saml). Needs identity (AuthModule), Redis and the audit recorder.
 */
@Global()
@Module({
  providers: [
    SsoRepository,
    SsoStateStore,
    SsoSettingsService,
    SsoSignInService,
    OidcProvider,
    DnsVerifier,
    { provide: SsoEnforcement, useExisting: SsoSignInService },
  ],
  exports: [SsoSettingsService, SsoSignInService, SsoEnforcement],
})
export class SsoModule {}
