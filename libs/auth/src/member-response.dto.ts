import { ApiProperty } from '@nestjs/swagger';
import { Role } from '@dl/platform/db';

export class MemberResponseDto {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class MemberListResponseDto {
  @ApiProperty({ type: [MemberResponseDto] }) members!: MemberResponseDto[];
}

/** POST /api/organization/members for an email without an account (decisions §14): the token is shown once. */
export class InvitationCreatedResponseDto {
  @ApiProperty({ format: 'uuid' }) invitationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time', description: '7 days after creation' }) expiresAt!: string;
  @ApiProperty({ example: 'dli_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'Shown once; also emailed to the invitee' })
  inviteToken!: string;
}

export class InvitedByDto {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() name!: string;
}

export class InvitationResponseDto {
  @ApiProperty({ format: 'uuid' }) invitationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: InvitedByDto, nullable: true, description: 'null when the inviter has left' }) invitedBy!: InvitedByDto | null;
}

export class InvitationListResponseDto {
  @ApiProperty({ type: [InvitationResponseDto], description: 'Pending invitations (not accepted, not expired), newest first' })
  invitations!: InvitationResponseDto[];
}
