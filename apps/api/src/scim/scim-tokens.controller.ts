import { Auth, CurrentPrincipal, DashboardOnly, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, UuidParam } from '@dl/platform/http';
import { CreatedScimTokenResponseDto, ScimTokenListResponseDto, ScimTokensService } from '@dl/scim';

/** SCIM bearer tokens (decisions §25): Owners, dashboard sessions only; the token is shown once. */
@ApiController('api/organization/scim-tokens', 'scim tokens', Auth(Permissions.organizationOwn), DashboardOnly())
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Endpoint.get({ summary: 'List the live SCIM tokens (never the secrets)', response: ScimTokenListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<ScimTokenListResponseDto> {
    return this.tokens.list(principal.organizationId);
  }

  @Endpoint.post({ summary: 'Create a SCIM token; answered once', status: 201, response: CreatedScimTokenResponseDto })
  create(@CurrentPrincipal() principal: Principal): Promise<CreatedScimTokenResponseDto> {
    return this.tokens.create(principal.organizationId);
  }

  @Endpoint.delete(':id', { summary: 'Revoke a SCIM token at once', status: 204, success: { description: 'Revoked' }, errors: { 404: 'SCIM token not found' } })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<void> {
    return this.tokens.revoke(principal.organizationId, id);
  }
}
