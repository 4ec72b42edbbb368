import { ApiProperty } from '@nestjs/swagger';
import { Role } from '@dl/platform/db';

export class MemberResponseDoc {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() email!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class MemberListResponseDoc {
  @ApiProperty({ type: [MemberResponseDoc] }) members!: MemberResponseDoc[];
}

/** POST /api/organization/members for an email without an account (decisions §14). */
export class InvitationCreatedResponseDoc {
  @ApiProperty({ format: 'uuid' }) invitationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time', description: '7 days after creation' }) expiresAt!: string;
  @ApiProperty({ example: 'dli_0123456789abcdef0123456789abcdef0123456789abcdef', description: 'Shown once; also emailed to the invitee' })
  inviteToken!: string;
}

export class InvitedByDoc {
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty() name!: string;
}

export class InvitationResponseDoc {
  @ApiProperty({ format: 'uuid' }) invitationId!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ enum: Role }) role!: Role;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: InvitedByDoc, nullable: true, description: 'null when the inviter has left' }) invitedBy!: InvitedByDoc | null;
}

export class InvitationListResponseDoc {
  @ApiProperty({ type: [InvitationResponseDoc], description: 'Pending invitations (not accepted, not expired), newest first' })
  invitations!: InvitationResponseDoc[];
}
