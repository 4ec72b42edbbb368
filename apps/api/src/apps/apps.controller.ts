import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { AppResponse, AppsService, CreateAppDto, CreatedAppResponse } from '@dl/sdk';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { AppResponseDoc, AppSuccessResponseDoc, CreatedAppResponseDoc } from './apps.response-doc';

@ApiTags('apps')
@Controller('api/apps')
@Auth(Permissions.appsManage)
@ApiUnauthorizedResponse({ type: ErrorBodyDoc })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Missing permission or plan feature' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc })
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Register a mobile app; answers its SDK token (`appToken`) once' })
  @ApiCreatedResponse({ type: CreatedAppResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateAppDto): Promise<CreatedAppResponse> {
    return this.apps.create(principal.organizationId, dto);
  }

  @Get()
  @ApiOperation({ summary: 'Apps of the organization (tokens masked)' })
  @ApiOkResponse({ type: [AppResponseDoc] })
  list(@CurrentPrincipal() principal: Principal): Promise<AppResponse[]> {
    return this.apps.list(principal.organizationId);
  }

  @Delete(':id')
  @ApiOkResponse({ type: AppSuccessResponseDoc })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'App not found' })
  @ApiOperation({ summary: 'Revoke an app token at once (installs and events are kept)' })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<{ success: true }> {
    return this.apps.remove(principal.organizationId, id);
  }
}
