import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { Tier } from '@dl/platform/db';
import { NoUpdatesError } from '@dl/platform/http';
import { isUuid } from '@dl/platform/validation';
import { ApiKeyScope, normalizeScopes } from './api-key-scopes';
import { generateApiKey, hashApiKey, storedKeyPrefix } from './api-key';
import { ApiKeyListResponseDto, ApiKeyResponseDto, CreatedApiKeyResponseDto } from './api-key-response.dto';
import { toApiKeyResponse, toCreatedApiKeyResponse } from './api-key.mapper';
import { ApiKeyChanges, ApiKeyRow, ApiKeysRepository } from './api-keys.repository';
import { ApiKeyLimitError, ApiKeyNotFoundError, InsufficientRoleError } from './auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from './credential-invalidation';
import { PlansService } from './plans';
import { Principal } from './principal';

/** What a new key is: its name, and optionally its scopes (default `all`) and expiry. */
export interface NewApiKey {
  name: string;
  scopes?: readonly ApiKeyScope[];
  expiresAt?: Date | null;
}

/** A key's PATCH: any of its name, scopes and expiry (`null` never expires). */
export interface ApiKeyUpdate {
  name?: string;
  scopes?: readonly ApiKeyScope[];
  expiresAt?: Date | null;
}

/** Owners and Admins manage every key of the organization; other roles their own. */
function seesAllKeys(principal: Principal): boolean {
  return principal.role === 'OWNER' || principal.role === 'ADMIN';
}

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly plans: PlansService,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
  ) {}

  /** Decisions §14: Members and above; a Viewer's (read-only) key is made by the operator CLI's `key:create`. */
  async create(principal: Principal, input: NewApiKey): Promise<CreatedApiKeyResponseDto> {
    if (principal.role === 'VIEWER') throw new InsufficientRoleError();
    const created = await this.issue(principal.organizationId, principal.userId, principal.tier, input.name, input);
    this.audit.record({
      organizationId: principal.organizationId,
      action: 'api_key.created',
      targetId: created.id,
      changes: { name: created.name, scopes: created.scopes, expiresAt: created.expiresAt },
    });
    return created;
  }

  /**
   * A new key acting as `userId` in the organization, within the plan's key limit
   * (checked under a lock on the organization so concurrent creations cannot overshoot).
   */
  async issue(
    organizationId: string,
    userId: string,
    tier: Tier,
    name: string,
    options: Omit<NewApiKey, 'name'> = {},
  ): Promise<CreatedApiKeyResponseDto> {
    const key = generateApiKey();
    const limit = this.plans.limits(tier).apiKeys;
    const row = await this.keys.transaction(async (tx) => {
      await this.keys.lockOrganization(tx, organizationId);
      if (limit !== null && (await this.keys.countLive(organizationId, tx)) >= limit) throw new ApiKeyLimitError();
      return this.keys.create(tx, organizationId, {
        userId,
        name: name.trim(),
        keyHash: hashApiKey(key),
        keyPrefix: storedKeyPrefix(key),
        scopes: normalizeScopes(options.scopes),
        expiresAt: options.expiresAt ?? null,
      });
    });
    return toCreatedApiKeyResponse(row, key);
  }

  /** Operator use: every live key of the organization (hashes included, never the secrets). */
  listForOrganization(organizationId: string): Promise<ApiKeyRow[]> {
    return this.keys.listAll(organizationId);
  }

  /** Operator use: revokes a member's keys of a given name (the demo key replaced on restart). */
  async revokeByName(organizationId: string, userId: string, name: string): Promise<void> {
    await this.invalidation.revokedKeys(await this.keys.revokeByName(organizationId, userId, name));
  }

  async list(principal: Principal): Promise<ApiKeyListResponseDto> {
    const rows = await this.keys.list(principal.organizationId, seesAllKeys(principal) ? undefined : principal.userId);
    return { keys: rows.map(toApiKeyResponse) };
  }

  /** Renames, rescopes or changes the expiry; a change of what the key may do applies from the next request. */
  async update(principal: Principal, id: string, input: ApiKeyUpdate): Promise<ApiKeyResponseDto> {
    const changes: ApiKeyChanges = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.scopes !== undefined) changes.scopes = normalizeScopes(input.scopes);
    if (input.expiresAt !== undefined) changes.expiresAt = input.expiresAt;
    if (!Object.keys(changes).length) throw new NoUpdatesError();
    const before = await this.visible(principal, id);
    const row = await this.keys.update(principal.organizationId, id, changes);
    if (!row) throw new ApiKeyNotFoundError();
    if (changes.scopes || changes.expiresAt !== undefined) await this.invalidation.revokedKeys([before.keyHash]);
    this.audit.record({ organizationId: principal.organizationId, action: 'api_key.updated', targetId: id, changes: { ...changes } });
    return toApiKeyResponse(row);
  }

  /** Deleting revokes at once: every instance refuses the key from the next request. */
  async revoke(principal: Principal, id: string): Promise<void> {
    const row = await this.visible(principal, id);
    if (!(await this.keys.revoke(principal.organizationId, id))) throw new ApiKeyNotFoundError();
    await this.invalidation.revokedKeys([row.keyHash]);
    this.audit.record({ organizationId: principal.organizationId, action: 'api_key.revoked', targetId: id, changes: { name: row.name } });
  }

  private async visible(principal: Principal, id: string): Promise<ApiKeyRow> {
    if (!isUuid(id)) throw new ApiKeyNotFoundError();
    const row = await this.keys.find(principal.organizationId, id);
    if (!row || (!seesAllKeys(principal) && row.userId !== principal.userId)) throw new ApiKeyNotFoundError();
    return row;
  }
}
