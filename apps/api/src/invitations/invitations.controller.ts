import { Controller, Delete, Get, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, InvitationListResponseDto, InvitationsService, Permissions, Principal } from '@dl/auth';
import { Endpoint } from '@dl/platform/http';

/** Pending invitations (decisions §14): Owner and Admin, dashboard sessions only, like members. */
@ApiTags('members')
@Auth(Permissions.membersManage)
@DashboardOnly()
@Controller('api/organization/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @Endpoint({ summary: 'List pending invitations (tokens are never shown again)', response: InvitationListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<InvitationListResponseDto> {
    return this.invitations.list(principal);
  }

  @Delete(':id')
  @Endpoint({
    summary: 'Revoke a pending invitation (its token stops working at once)',
    status: 204,
    success: { description: 'Revoked' },
    errors: { 404: 'Invitation not found' },
  })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.invitations.revoke(principal, id);
  }
}
