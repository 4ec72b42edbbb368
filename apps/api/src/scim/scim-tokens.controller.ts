import { Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, Permissions, Principal } from '@dl/auth';
import { Endpoint, UuidParam } from '@dl/platform/http';
import { CreatedScimTokenResponseDto, ScimTokenListResponseDto, ScimTokensService } from '@dl/scim';

/** SCIM bearer tokens (decisions §25): Owners, dashboard sessions only; the token is shown once. */
@ApiTags('scim tokens')
@Auth(Permissions.organizationOwn)
@DashboardOnly()
@Controller('api/organization/scim-tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Get()
  @Endpoint({ summary: 'List the live SCIM tokens (never the secrets)', response: ScimTokenListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<ScimTokenListResponseDto> {
    return this.tokens.list(principal.organizationId);
  }

  @Post()
  @Endpoint({ summary: 'Create a SCIM token; answered once', status: 201, response: CreatedScimTokenResponseDto })
  create(@CurrentPrincipal() principal: Principal): Promise<CreatedScimTokenResponseDto> {
    return this.tokens.create(principal.organizationId);
  }

  @Delete(':id')
  @Endpoint({ summary: 'Revoke a SCIM token at once', status: 204, success: { description: 'Revoked' }, errors: { 404: 'SCIM token not found' } })
  remove(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<void> {
    return this.tokens.revoke(principal.organizationId, id);
  }
}
