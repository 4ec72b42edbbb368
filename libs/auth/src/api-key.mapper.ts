import { ShapeAgrees } from '@dl/platform/http';
import { maskedKeyPrefix } from './api-key';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from './api-key-response.dto';
import { ApiKeyRow } from './api-keys.repository';

export function toApiKeyResponse(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    keyPrefix: maskedKeyPrefix(row.keyPrefix),
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

/** The creation answer: the new row and its secret `key`, which is never stored. */
export function toCreatedApiKeyResponse(row: ApiKeyRow, key: string) {
  return { id: row.id, name: row.name, key, createdAt: row.createdAt.toISOString(), lastUsedAt: null };
}

/** Compile-time agreement of each mapper with its response class (see ShapeAgrees). */
export const API_KEY_SHAPES_AGREE: [
  ShapeAgrees<ApiKeyResponseDto, ReturnType<typeof toApiKeyResponse>>,
  ShapeAgrees<CreatedApiKeyResponseDto, ReturnType<typeof toCreatedApiKeyResponse>>,
] = [true, true];
