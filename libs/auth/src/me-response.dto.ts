import { ApiProperty } from '@nestjs/swagger';
import { Role } from '@dl/platform/db';
import { OrganizationSummaryDto } from './organization-summary.dto';

export class MeUserDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The address was proven (verification link, password reset or accepted invitation)' }) emailVerified!: boolean;
  @ApiProperty() twoFactorEnabled!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class MeOrganizationDto extends OrganizationSummaryDto {}

export class MeMembershipDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ enum: Role }) role!: Role;
}

/** GET /auth/me (decisions §20): the account, the session's organization and role, and every organization of the account. */
export class MeResponseDto {
  @ApiProperty({ type: MeUserDto }) user!: MeUserDto;
  @ApiProperty({ type: MeOrganizationDto }) organization!: MeOrganizationDto;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ type: [MeMembershipDto] }) organizations!: MeMembershipDto[];
}

/** POST /auth/verify-email. */
export class EmailVerifiedResponseDto {
  @ApiProperty({ enum: [true] }) verified!: true;
}

/** 202 answers of requests whose effect is an email: nothing to say (decisions §20). */
export class AcceptedResponseDto {}
