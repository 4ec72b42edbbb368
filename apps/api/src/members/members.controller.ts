import { Body, Param } from '@nestjs/common';
import {
  Auth,
  CurrentPrincipal,
  DashboardOnly,
  InvitationCreatedResponseDto,
  MemberListResponseDto,
  MemberResponseDto,
  MembersService,
  Permissions,
  Principal,
} from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';
import { AddMemberDto, ChangeRoleDto } from './members.dto';

const LAST_OWNER = 'An organization must keep at least one owner';

/** Team management: Owner and Admin, dashboard sessions only (decisions §2). */
@ApiController('api/organization/members', 'members', Auth(Permissions.membersManage), DashboardOnly())
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Endpoint.get({ summary: "List the organization's members and their roles", response: MemberListResponseDto })
  list(@CurrentPrincipal() principal: Principal): Promise<MemberListResponseDto> {
    return this.members.list(principal);
  }

  @Endpoint.post({
    summary: 'Invite an email to join the organization',
    description:
      'Every email gets an invitation, whether it has an account or not, and the same answer (decisions §20): ' +
      'a single-use `dli_` token valid 7 days, shown once here and emailed to the invitee, who accepts it with ' +
      '`POST /auth/accept-invite`. Only an Owner can invite an Owner. `password` is refused (400).',
    status: 201,
    response: InvitationCreatedResponseDto,
    errors: {
      400: 'Validation error (including `password`, which is not accepted)',
      409: 'This user is already a member of the organization',
    },
  })
  add(@CurrentPrincipal() principal: Principal, @Body() body: AddMemberDto): Promise<InvitationCreatedResponseDto> {
    return this.members.add(principal, { email: body.email, role: body.role });
  }

  @Endpoint.patch(':userId', {
    summary: "Change a member's role",
    response: MemberResponseDto,
    errors: { 400: 'Validation error', 404: 'Member not found', 409: LAST_OWNER },
  })
  changeRole(@CurrentPrincipal() principal: Principal, @Param('userId') userId: string, @Body() body: ChangeRoleDto): Promise<MemberResponseDto> {
    return this.members.changeRole(principal, userId, body.role);
  }

  @Endpoint.delete(':userId', {
    summary: 'Remove a member (their sessions and API keys stop working)',
    status: 204,
    success: { description: 'Removed' },
    errors: { 404: 'Member not found', 409: LAST_OWNER },
  })
  remove(@CurrentPrincipal() principal: Principal, @Param('userId') userId: string): Promise<void> {
    return this.members.remove(principal, userId);
  }
}
