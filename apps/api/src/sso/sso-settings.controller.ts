import { Body } from '@nestjs/common';
import { Auth, CurrentPrincipal, DashboardOnly, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import { PutSsoDto, SsoResponseDto, SsoSettingsService } from '@dl/sso';

const NOT_CONFIGURED = { 404: 'Single sign-on is not configured' } as const;

/** The organization's single sign-on (decisions §25): Owners, dashboard sessions only. */
@ApiController('api/organization/sso', 'sso', Auth(Permissions.organizationOwn), DashboardOnly())
export class SsoSettingsController {
  constructor(private readonly settings: SsoSettingsService) {}

  @Endpoint.get({ summary: 'Read the single sign-on setting (never the client secret)', response: SsoResponseDto, errors: NOT_CONFIGURED })
  get(@CurrentPrincipal() principal: Principal): Promise<SsoResponseDto> {
    return this.settings.get(principal.organizationId);
  }

  @Endpoint.put({
    summary: 'Set single sign-on: the identity provider, the email domains, enforcement and the default role',
    description:
      'OIDC `{type: "oidc", issuer, clientId, clientSecret}` or SAML `{type: "saml", idpMetadataXml}` (or `{entryPoint, certificate}`). ' +
      'Each new email domain starts pending with its TXT record `_dl-sso.<domain>` = `dl-sso=<token>`; domains left out are removed. ' +
      '`clientSecret` may be left out to keep the stored one. Issuers and SAML endpoints must be https (except SSO_ALLOW_HTTP_HOSTS).',
    response: SsoResponseDto,
    errors: { 400: 'Validation error', 409: "Domain '<domain>' is already in use (verified by another organization)" },
  })
  put(@CurrentPrincipal() principal: Principal, @Body() dto: PutSsoDto): Promise<SsoResponseDto> {
    return this.settings.put(principal.organizationId, dto);
  }

  @Endpoint.post('verify', {
    summary: "Look the pending domains' TXT records up now; answers the setting",
    response: SsoResponseDto,
    errors: { ...NOT_CONFIGURED, 409: "Domain '<domain>' is already in use (verified by another organization)" },
  })
  verify(@CurrentPrincipal() principal: Principal): Promise<SsoResponseDto> {
    return this.settings.verify(principal.organizationId);
  }
}
