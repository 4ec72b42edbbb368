import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import {
  ApiKeyResponse,
  ApiKeysService,
  Auth,
  CreatedApiKeyResponse,
  CurrentPrincipal,
  DashboardOnly,
  Permissions,
  Principal,
} from '@dl/auth';
import { CreateApiKeyDto, RenameApiKeyDto } from './keys.dto';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { ApiKeyListResponseDoc, ApiKeyResponseDoc, CreatedApiKeyResponseDoc } from './keys.response-doc';

/** API keys: dashboard sessions only (decisions §2); the secret is shown once. */
@ApiTags('api keys')
@Auth(Permissions.keysManage)
@DashboardOnly()
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/keys')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @ApiOperation({ summary: 'List the organization\'s API keys (prefixes only)' })
  @ApiOkResponse({ type: ApiKeyListResponseDoc })
  list(@CurrentPrincipal() principal: Principal): Promise<{ keys: ApiKeyResponse[] }> {
    return this.keys.list(principal);
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key; its secret is answered once' })
  @ApiCreatedResponse({ type: CreatedApiKeyResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    return this.keys.create(principal, body.name);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename an API key' })
  @ApiOkResponse({ type: ApiKeyResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'API key not found' })
  rename(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: RenameApiKeyDto,
  ): Promise<ApiKeyResponse> {
    return this.keys.rename(principal, id, body.name);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an API key at once' })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'API key not found' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(principal, id);
  }
}
