import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, InvitationResponse, InvitationsService, Permissions, Principal } from '@dl/auth';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { InvitationListResponseDoc } from '../members/members.response-doc';

/** Pending invitations (decisions §14): Owner and Admin, dashboard sessions only, like members. */
@ApiTags('members')
@Auth(Permissions.membersManage)
@DashboardOnly()
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role does not allow this, or not a dashboard session' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('api/organization/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Get()
  @ApiOperation({ summary: 'List pending invitations (tokens are never shown again)' })
  @ApiOkResponse({ type: InvitationListResponseDoc })
  list(@CurrentPrincipal() principal: Principal): Promise<{ invitations: InvitationResponse[] }> {
    return this.invitations.list(principal);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a pending invitation (its token stops working at once)' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Invitation not found' })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.invitations.revoke(principal, id);
  }
}
