import { Permission, Permissions, Principal } from './principal';

/**
 * What an API key may do (decisions §25). `all` grants every scope; a session (JWT) is not
 * limited by scopes, only by its role.
 */
export const API_KEY_SCOPES = [
  'links:read',
  'links:write',
  'analytics:read',
  'conversions:write',
  'domains:write',
  'webhooks:write',
  'all',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

const SCOPE_SET: ReadonlySet<string> = new Set(API_KEY_SCOPES);
export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return typeof value === 'string' && SCOPE_SET.has(value);
}

/**
 * The scope a route needs when it names none (`@Auth(permission, { scope })` overrides it):
 * `read` is reading links and what they refer to; analytics routes that check `read` name
 * `analytics:read` themselves. Permissions absent here are JWT-only resources (keys, members),
 * which only `all` reaches.
 */
export const PERMISSION_SCOPE: Readonly<Partial<Record<Permission, ApiKeyScope>>> = {
  [Permissions.read]: 'links:read',
  [Permissions.linksWrite]: 'links:write',
  [Permissions.templatesWrite]: 'links:write',
  [Permissions.projectsWrite]: 'links:write',
  [Permissions.templatesDelete]: 'links:write',
  [Permissions.projectsDelete]: 'links:write',
  [Permissions.analyticsEvents]: 'analytics:read',
  [Permissions.analyticsExport]: 'analytics:read',
  [Permissions.reportsRegenerate]: 'analytics:read',
  [Permissions.webhooksManage]: 'webhooks:write',
  [Permissions.appsManage]: 'webhooks:write',
  [Permissions.pixelsManage]: 'webhooks:write',
  [Permissions.domainsManage]: 'domains:write',
  [Permissions.conversionsRead]: 'analytics:read',
  [Permissions.conversionsWrite]: 'conversions:write',
};

/** The scope a route needs: its own, else its permission's, else `all`. */
export function requiredScope(permission: Permission | undefined, scope: ApiKeyScope | undefined): ApiKeyScope {
  return scope ?? (permission ? PERMISSION_SCOPE[permission] : undefined) ?? 'all';
}

/**
 * Whether a caller may act within `scope`: sessions always (their role decides), API keys
 * when they hold `all` or the scope itself. Every check of a key's scopes goes through here
 * (the auth guard, the MCP server's tools).
 */
export function principalHasScope(principal: Principal, scope: ApiKeyScope): boolean {
  if (principal.kind === 'session') return true;
  const scopes = principal.scopes ?? ['all'];
  return scopes.includes('all') || scopes.includes(scope);
}

/** Scopes as stored: unique, in the canonical order; `all` alone when it is among them. */
export function normalizeScopes(scopes: readonly ApiKeyScope[] | undefined): ApiKeyScope[] {
  if (!scopes || scopes.length === 0 || scopes.includes('all')) return ['all'];
  return API_KEY_SCOPES.filter((s) => scopes.includes(s));
}
