import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { AuditSink } from '@dl/audit';
import { domainError } from '@dl/platform/http';
import { isUuid } from '@dl/platform/validation';
import { ScimRepository } from './scim.repository';

/** `dls_` + 64 lowercase hex (32 random bytes): a SCIM bearer token, shown once. */
const TOKEN = /^dls_[0-9a-f]{64}$/;
const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class ScimTokenNotFoundError extends domainError('SCIM_TOKEN_NOT_FOUND', 'SCIM token not found') {}

export class ScimTokenResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt!: string | null;
}
export class ScimTokenListResponseDto {
  @ApiProperty({ type: [ScimTokenResponseDto] }) tokens!: ScimTokenResponseDto[];
}
/** POST /api/organization/scim-tokens: the only answer carrying the secret. */
export class CreatedScimTokenResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ description: 'The `dls_` token, shown once' }) token!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

const LAST_USED_WRITE_MS = 60_000;

/** SCIM tokens of an organization (decisions §25): only their SHA-256 is stored; deleting revokes at once. */
@Injectable()
export class ScimTokensService {
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly repo: ScimRepository,
    private readonly audit: AuditSink,
  ) {}

  async create(organizationId: string): Promise<CreatedScimTokenResponseDto> {
    const token = `dls_${randomBytes(32).toString('hex')}`;
    const row = await this.repo.createToken(organizationId, hashToken(token));
    this.audit.record({ organizationId, action: 'scim_token.created', targetId: row.id });
    return { id: row.id, token, createdAt: row.createdAt.toISOString() };
  }

  async list(organizationId: string): Promise<ScimTokenListResponseDto> {
    const rows = await this.repo.listTokens(organizationId);
    return { tokens: rows.map((r) => ({ id: r.id, createdAt: r.createdAt.toISOString(), lastUsedAt: r.lastUsedAt?.toISOString() ?? null })) };
  }

  async revoke(organizationId: string, id: string): Promise<void> {
    if (!isUuid(id)) throw new ScimTokenNotFoundError();
    if (!(await this.repo.revokeToken(organizationId, id))) throw new ScimTokenNotFoundError();
    this.audit.record({ organizationId, action: 'scim_token.revoked', targetId: id });
  }

  /** The organization a live token belongs to, or null. Read from Postgres each time: a revoked token stops at once. */
  async organizationOf(token: string): Promise<string | null> {
    if (!TOKEN.test(token)) return null;
    const hash = hashToken(token);
    const row = await this.repo.findToken(hash);
    if (!row || row.revokedAt || !timingSafeEqual(Buffer.from(row.tokenHash), Buffer.from(hash))) return null;
    const now = Date.now();
    if ((this.touched.get(row.id) ?? 0) < now - LAST_USED_WRITE_MS) {
      this.touched.set(row.id, now);
      void this.repo.touchToken(row.organizationId, row.id, new Date(now)).catch(() => undefined);
    }
    return row.organizationId;
  }
}
