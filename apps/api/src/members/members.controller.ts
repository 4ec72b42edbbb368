import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, MemberResponse, MembersService, Permissions, Principal } from '@dl/auth';
import { AddMemberDto, ChangeRoleDto } from './members.dto';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { MemberListResponseDoc, MemberResponseDoc } from './members.response-doc';

/** Team management: Owner and Admin, dashboard sessions only (decisions §2). */
@ApiTags('members')
@Auth(Permissions.membersManage)
@DashboardOnly()
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
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
  @ApiOperation({ summary: 'Add a member (creating their account when the email has none)' })
  @ApiCreatedResponse({ type: MemberResponseDoc })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Validation error' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'No user with this email' })
  @ApiConflictResponse({ type: ErrorBodyDoc, description: 'This user is already a member of the organization' })
  add(@CurrentPrincipal() principal: Principal, @Body() body: AddMemberDto): Promise<MemberResponse> {
    return this.members.add(principal, body);
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
