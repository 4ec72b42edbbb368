import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import {
  Auth,
  CurrentPrincipal,
  DashboardOnly,
  InvitationCreatedResponse,
  MemberResponse,
  MembersService,
  Permissions,
  Principal,
} from '@dl/auth';
import { AddMemberDto, ChangeRoleDto } from './members.dto';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { InvitationCreatedResponseDoc, MemberListResponseDoc, MemberResponseDoc } from './members.response-doc';

/** Team management: Owner and Admin, dashboard sessions only (decisions §2). */
@ApiTags('members')
@Auth(Permissions.membersManage)
@DashboardOnly()
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@ApiExtraModels(MemberResponseDoc, InvitationCreatedResponseDoc)
@Controller('api/organization/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  @ApiOperation({ summary: 'List the organization\'s members and their roles' })
  @ApiOkResponse({ type: MemberListResponseDoc })
  list(@CurrentPrincipal() principal: Principal): Promise<{ members: MemberResponse[] }> {
    return this.members.list(principal);
  }

  @Post()
  @ApiOperation({
    summary: 'Add a member, or invite an email without an account',
    description:
      'An email that has an account becomes a member at once (the member). Any other email gets an invitation: ' +
      'a single-use `dli_` token valid 7 days, shown once here and emailed to the invitee, who accepts it with ' +
      '`POST /auth/accept-invite`. Only an Owner can add or invite an Owner. `password` is refused (400).',
  })
  @ApiResponse({
    status: 201,
    description: 'The new member, or the invitation',
    schema: { oneOf: [{ $ref: getSchemaPath(MemberResponseDoc) }, { $ref: getSchemaPath(InvitationCreatedResponseDoc) }] },
  })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error (including `password`, which is not accepted)' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'This user is already a member of the organization' })
  add(@CurrentPrincipal() principal: Principal, @Body() body: AddMemberDto): Promise<MemberResponse | InvitationCreatedResponse> {
    return this.members.add(principal, { email: body.email, role: body.role });
  }

  @Patch(':userId')
  @ApiOperation({ summary: 'Change a member\'s role' })
  @ApiOkResponse({ type: MemberResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Member not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'An organization must keep at least one owner' })
  changeRole(
    @CurrentPrincipal() principal: Principal,
    @Param('userId') userId: string,
    @Body() body: ChangeRoleDto,
  ): Promise<MemberResponse> {
    return this.members.changeRole(principal, userId, body.role);
  }

  @Delete(':userId')
  @ApiOperation({ summary: 'Remove a member (their sessions and API keys stop working)' })
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Member not found' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'An organization must keep at least one owner' })
  remove(@CurrentPrincipal() principal: Principal, @Param('userId') userId: string): Promise<void> {
    return this.members.remove(principal, userId);
  }
}
