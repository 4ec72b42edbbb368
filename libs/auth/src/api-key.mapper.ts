import { ShapeAgrees } from '@dl/platform/http';
import { maskedKeyPrefix } from './api-key';
import { isApiKeyScope, normalizeScopes } from './api-key-scopes';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from './api-key-response.dto';
import { ApiKeyRow } from './api-keys.repository';

export function toApiKeyResponse(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: maskedKeyPrefix(row.keyPrefix),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
    lastUsedIp: row.lastUsedIp,
    scopes: normalizeScopes(row.scopes.filter(isApiKeyScope)),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  };
}

/** The creation answer: the new row and its secret `key`, which is never stored. */
export function toCreatedApiKeyResponse(row: ApiKeyRow, key: string) {
  return {
    id: row.id,
    name: row.name,
    key,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: null,
    scopes: normalizeScopes(row.scopes.filter(isApiKeyScope)),
    expiresAt: row.expiresAt ? row.expiresAt.toISOString() : null,
  };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const API_KEY_SHAPES_AGREE: [
  ShapeAgrees<ApiKeyResponseDto, ReturnType<typeof toApiKeyResponse>>,
  ShapeAgrees<CreatedApiKeyResponseDto, ReturnType<typeof toCreatedApiKeyResponse>>,
] = [true, true];
