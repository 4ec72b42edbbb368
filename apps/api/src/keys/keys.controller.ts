import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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

/** API keys: dashboard sessions only (decisions §2); the secret is shown once. */
@ApiTags('api keys')
@Auth(Permissions.keysManage)
@DashboardOnly()
@Controller('api/keys')
export class KeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<{ keys: ApiKeyResponse[] }> {
    return this.keys.list(principal);
  }

  @Post()
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    return this.keys.create(principal, body.name);
  }

  @Patch(':id')
  rename(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: RenameApiKeyDto,
  ): Promise<ApiKeyResponse> {
    return this.keys.rename(principal, id, body.name);
  }

  @Delete(':id')
  @HttpCode(204)
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.keys.revoke(principal, id);
  }
}
