import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, Permissions, Principal, UsageResponseDto, UsageService } from '@dl/auth';
import { Endpoint } from '@dl/platform/http';

/** Usage against the plan (decisions §5): any role, API key or session. */
@ApiTags('usage')
@Controller('api/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @Auth(Permissions.read)
  @Endpoint({ summary: "Links, clicks this month and API keys against the plan's limits", response: UsageResponseDto })
  get(@CurrentPrincipal() principal: Principal): Promise<UsageResponseDto> {
    return this.usage.get(principal);
  }
}
