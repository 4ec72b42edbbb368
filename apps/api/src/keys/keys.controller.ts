import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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
import { Endpoint } from '@dl/platform/http';
import { CreateApiKeyDto, expiryOf, UpdateApiKeyDto } from './keys.dto';

/** API keys: dashboard sessions only (decisions §2); the secret is shown once. */
@ApiTags('api keys')
@Auth(Permissions.keysManage)
@DashboardOnly()
@Controller('api/keys')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Endpoint({ summary: "List the organization's API keys (prefixes only)", response: ApiKeyListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListResponseDto> {
    return this.keys.list(principal);
  }

  @Post()
  @Endpoint({
    summary: 'Create an API key; its secret is answered once',
    status: 201,
    response: CreatedApiKeyResponseDto,
    errors: { 400: 'Validation error' },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponseDto> {
    return this.keys.create(principal, { name: body.name, scopes: body.scopes, expiresAt: expiryOf(body) });
  }

  @Patch(':id')
  @Endpoint({
    summary: 'Rename an API key or change its scopes or expiry',
    response: ApiKeyResponseDto,
    errors: { 400: 'Validation error', 404: 'API key not found' },
  })
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateApiKeyDto): Promise<ApiKeyResponseDto> {
    return this.keys.update(principal, id, { name: body.name, scopes: body.scopes, expiresAt: expiryOf(body) });
  }

  @Delete(':id')
  @Endpoint({ summary: 'Revoke an API key at once', status: 204, success: { description: 'Revoked' }, errors: { 404: 'API key not found' } })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(principal, id);
  }
}
