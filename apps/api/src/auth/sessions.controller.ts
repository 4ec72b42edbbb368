import { Controller, Delete, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, Principal, SessionListResponseDto, SessionsService, toSessionListResponse } from '@dl/auth';
import { Endpoint, UuidParam } from '@dl/platform/http';

/** The account's dashboard sessions (decisions §20): JWT only, each user sees and ends their own. */
@ApiTags('auth')
@Auth()
@DashboardOnly()
@Controller('auth/sessions')
export class SessionsController {
  constructor(private readonly sessions: SessionsService) {}

  @Get()
  @Endpoint({ summary: 'The signed-in dashboards of this account', response: SessionListResponseDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SessionListResponseDto> {
    return toSessionListResponse(await this.sessions.list(principal.userId, principal.sessionId));
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Sign a session out: its refresh cookie and access tokens stop working',
    status: 204,
    success: { description: 'Signed out' },
    errors: { 400: 'Validation error', 404: 'Session not found' },
  })
  revoke(@CurrentPrincipal() principal: Principal, @UuidParam() id: string): Promise<void> {
    return this.sessions.revoke(principal.userId, id);
  }
}
