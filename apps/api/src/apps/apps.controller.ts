import { Body, Param } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint, SuccessResponseDto } from '@dl/platform/http';
import { AppResponseDto, AppsService, CreateAppDto, CreatedAppResponseDto } from '@dl/sdk';

@ApiController('api/apps', 'apps', Auth(Permissions.appsManage))
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Endpoint.post({
    summary: 'Register a mobile app; answers its SDK token (`appToken`) once',
    status: 201,
    response: CreatedAppResponseDto,
    errors: { 400: 'Validation error' },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateAppDto): Promise<CreatedAppResponseDto> {
    return this.apps.create(principal.organizationId, dto);
  }

  @Endpoint.get({ summary: 'Apps of the organization (tokens masked)', response: [AppResponseDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<AppResponseDto[]> {
    return this.apps.list(principal.organizationId);
  }

  /** Any id that is not one of the organization's apps, a malformed one included, is `App not found`. */
  @Endpoint.delete(':id', {
    summary: 'Revoke an app token at once (installs and events are kept)',
    response: SuccessResponseDto,
    errors: { 404: 'App not found' },
  })
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SuccessResponseDto> {
    return this.apps.remove(principal.organizationId, id);
  }
}
