import { Body, Param } from '@nestjs/common';
import {
  ApiKeyListResponseDto,
  ApiKeyResponseDto,
  ApiKeysService,
  Auth,
  CreatedApiKeyResponseDto,
  CurrentPrincipal,
  DashboardOnly,
  Permissions,
  Principal,
} from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import { CreateApiKeyDto, expiryOf, UpdateApiKeyDto } from './keys.dto';

/** API keys: dashboard sessions only (decisions §2); the secret is shown once. */
@ApiController('api/keys', 'api keys', Auth(Permissions.keysManage), DashboardOnly())
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Endpoint.get({ summary: "List the organization's API keys (prefixes only)", response: ApiKeyListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListResponseDto> {
    return this.keys.list(principal);
  }

  @Endpoint.post({
    summary: 'Create an API key; its secret is answered once',
    status: 201,
    response: CreatedApiKeyResponseDto,
    errors: { 400: 'Validation error' },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponseDto> {
    return this.keys.create(principal, { name: body.name, scopes: body.scopes, expiresAt: expiryOf(body) });
  }

  @Endpoint.patch(':id', {
    summary: 'Rename an API key or change its scopes or expiry',
    response: ApiKeyResponseDto,
    errors: { 400: 'Validation error', 404: 'API key not found' },
  })
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateApiKeyDto): Promise<ApiKeyResponseDto> {
    return this.keys.update(principal, id, { name: body.name, scopes: body.scopes, expiresAt: expiryOf(body) });
  }

  @Endpoint.delete(':id', { summary: 'Revoke an API key at once', status: 204, success: { description: 'Revoked' }, errors: { 404: 'API key not found' } })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(principal, id);
  }
}
