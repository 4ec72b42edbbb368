import { Auth, CurrentPrincipal, Permissions, Principal, UsageResponseDto, UsageService } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';

/** Usage against the plan (decisions §5): any role, API key or session. */
@ApiController('api/usage', 'usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Endpoint.get({ access: Auth(Permissions.read), summary: "Links, clicks this month and API keys against the plan's limits", response: UsageResponseDto })
  get(@CurrentPrincipal() principal: Principal): Promise<UsageResponseDto> {
    return this.usage.get(principal);
  }
}
