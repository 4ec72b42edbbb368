import { Param } from '@nestjs/common';
import { Auth, CurrentPrincipal, DashboardOnly, InvitationListResponseDto, InvitationsService, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';

/** Pending invitations (decisions §14): Owner and Admin, dashboard sessions only, like members. */
@ApiController('api/organization/invitations', 'members', Auth(Permissions.membersManage), DashboardOnly())
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Endpoint.get({ summary: 'List pending invitations (tokens are never shown again)', response: InvitationListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<InvitationListResponseDto> {
    return this.invitations.list(principal);
  }

  @Endpoint.delete(':id', {
    summary: 'Revoke a pending invitation (its token stops working at once)',
    status: 204,
    success: { description: 'Revoked' },
    errors: { 404: 'Invitation not found' },
  })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.invitations.revoke(principal, id);
  }
}
