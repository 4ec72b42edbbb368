import type { ApiKeyScope } from './api-key-scopes';
import { Permission } from './principal';

export const AUTH_METADATA = 'dl:auth';
export const DASHBOARD_ONLY_METADATA = 'dl:auth:dashboard-only';

export interface AuthOptions {
  /**
   * 401 message when the request has no Authorization header at all (decisions §2:
   * `Authentication required` on GET/DELETE /api/links/:id). Default `Missing or invalid API key`.
   */
  missingMessage?: string;
  /** false: not counted against the plan's requests per minute (QR images). Default true. */
  rateLimit?: boolean;
  /**
   * The API-key scope the route needs when its permission's default (PERMISSION_SCOPE) is not
   * it: analytics reads check `read` but need `analytics:read`.
   */
  scope?: ApiKeyScope;
  /** true: open while the organization is scheduled for deletion (reading it, restoring it; decisions §20). */
  duringDeletion?: boolean;
  /**
   * true: without an Authorization header, a `dl_` key in the `key` query parameter authenticates
   * as if it were `Bearer <key>` (Firebase Dynamic Links' `?key=`; logs redact it). Never a JWT.
   */
  queryKey?: boolean;
}

export interface AuthMetadata extends AuthOptions {
  permission?: Permission;
}
