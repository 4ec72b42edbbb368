import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal, UsageResponse, UsageService } from '@dl/auth';

/** Usage against the plan (decisions §5): any role, API key or session. */
@ApiTags('usage')
@Controller('api/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @Auth(Permissions.read)
  get(@CurrentPrincipal() principal: Principal): Promise<UsageResponse> {
    return this.usage.get(principal);
  }
}
