import { Auth, CurrentPrincipal, DashboardOnly, Principal, SessionListResponseDto, SessionsService, toSessionListResponse } from '@dl/auth';
import { ApiController, Endpoint, UuidParam } from '@dl/platform/http';

/** The account's dashboard sessions (decisions §20): JWT only, each user sees and ends their own. */
@ApiController('auth/sessions', 'auth', Auth(), DashboardOnly())
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Endpoint.get({ summary: 'The signed-in dashboards of this account', response: SessionListResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SessionListResponseDto> {
    return toSessionListResponse(await this.sessions.list(principal.userId, principal.sessionId));
  }

  @Endpoint.delete(':id', {
    summary: 'Sign a session out: its refresh cookie and access tokens stop working',
    status: 204,
    success: { description: 'Signed out' },
    errors: { 400: 'Validation error', 404: 'Session not found' },
  })
  revoke(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<void> {
    return this.sessions.revoke(principal.userId, id);
  }
}
