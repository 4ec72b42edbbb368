import { ApiProperty } from '@nestjs/swagger';
import { ShapeAgrees } from '@dl/platform/http';
import type { SessionListItem } from './sessions.service';

/** One signed-in dashboard of the account (decisions §20). */
export class SessionItemDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time', description: 'Last sign-in or refresh' }) lastUsedAt!: string;
  @ApiProperty({ type: String, nullable: true }) userAgent!: string | null;
  @ApiProperty({ type: String, nullable: true }) ip!: string | null;
  @ApiProperty({ description: 'The session of this request' }) current!: boolean;
}

/** GET /auth/sessions: the account's live sessions, most recently used first. */
export class SessionListResponseDto {
  @ApiProperty({ type: [SessionItemDto] }) sessions!: SessionItemDto[];
}

export function toSessionListResponse(items: SessionListItem[]) {
  return {
    sessions: items.map((s) => ({
      id: s.id,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastUsedAt.toISOString(),
      userAgent: s.userAgent,
      ip: s.ip,
      current: s.current,
    })),
  };
}

export const SESSION_SHAPES_AGREE: [ShapeAgrees<SessionListResponseDto, ReturnType<typeof toSessionListResponse>>] = [true];
