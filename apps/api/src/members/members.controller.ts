import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, CurrentPrincipal, DashboardOnly, MemberResponse, MembersService, Permissions, Principal } from '@dl/auth';
import { AddMemberDto, ChangeRoleDto } from './members.dto';

/** Team management: Owner and Admin, dashboard sessions only (decisions §2). */
@ApiTags('members')
@Auth(Permissions.membersManage)
@DashboardOnly()
@Controller('api/organization/members')
export class MembersController {
  constructor(private readonly members: MembersService) {}

  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<{ members: MemberResponse[] }> {
    return this.members.list(principal);
  }

  @Post()
  add(@CurrentPrincipal() principal: Principal, @Body() body: AddMemberDto): Promise<MemberResponse> {
    return this.members.add(principal, body);
  }

  @Patch(':userId')
  changeRole(
    @CurrentPrincipal() principal: Principal,
    @Param('userId') userId: string,
    @Body() body: ChangeRoleDto,
  ): Promise<MemberResponse> {
    return this.members.changeRole(principal, userId, body.role);
  }

  @Delete(':userId')
  @HttpCode(204)
  remove(@CurrentPrincipal() principal: Principal, @Param('userId') userId: string): Promise<void> {
    return this.members.remove(principal, userId);
  }
}
