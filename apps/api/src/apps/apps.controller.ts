import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { AppResponse, AppsService, CreateAppDto, CreatedAppResponse } from '@dl/sdk';

@ApiTags('apps')
@Controller('api/apps')
@Auth(Permissions.appsManage)
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a mobile app; answers its SDK token (`appToken`) once' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateAppDto): Promise<CreatedAppResponse> {
    return this.apps.create(principal.organizationId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'Apps of the organization (tokens masked)' })
  list(@CurrentPrincipal() principal: Principal): Promise<AppResponse[]> {
    return this.apps.list(principal.organizationId);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke an app token at once (installs and events are kept)' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<{ success: true }> {
    return this.apps.remove(principal.organizationId, id);
  }
}
