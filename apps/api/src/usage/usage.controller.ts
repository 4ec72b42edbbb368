import { Controller, Get } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal, UsageResponse, UsageService } from '@dl/auth';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { UsageResponseDoc } from './usage.response-doc';

/** Usage against the plan (decisions §5): any role, API key or session. */
@ApiTags('usage')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @ApiOperation({ summary: 'Links, clicks this month and API keys against the plan\'s limits' })
  @Auth(Permissions.read)
  @ApiOkResponse({ type: UsageResponseDoc })
  get(@CurrentPrincipal() principal: Principal): Promise<UsageResponse> {
    return this.usage.get(principal);
  }
}
