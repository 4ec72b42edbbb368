import { ShapeAgrees } from '@dl/platform/http';
import { InvitationRow } from './invitations.repository';
import { InvitationCreatedResponseDto, InvitationResponseDto, MemberResponseDto } from './member-response.dto';
import { MemberRow } from './members.repository';

export function toMemberResponse(row: MemberRow) {
  return { userId: row.userId, email: row.email, name: row.name, role: row.role, createdAt: row.createdAt.toISOString() };
}

export function toInvitationResponse(row: InvitationRow) {
  return {
    invitationId: row.id,
    email: row.email,
    role: row.role,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    invitedBy: row.invitedBy,
  };
}

/** The invitation just made, with its token (stored only as a hash, so shown this once). */
export function toInvitationCreatedResponse(row: InvitationRow, inviteToken: string) {
  return { invitationId: row.id, email: row.email, role: row.role, expiresAt: row.expiresAt.toISOString(), inviteToken };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const MEMBER_SHAPES_AGREE: [
  ShapeAgrees<MemberResponseDto, ReturnType<typeof toMemberResponse>>,
  ShapeAgrees<InvitationResponseDto, ReturnType<typeof toInvitationResponse>>,
  ShapeAgrees<InvitationCreatedResponseDto, ReturnType<typeof toInvitationCreatedResponse>>,
] = [true, true, true];
