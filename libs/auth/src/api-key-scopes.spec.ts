import { normalizeScopes, principalHasScope, requiredScope } from './api-key-scopes';
import { Permissions, Principal } from './principal';

const key = (scopes: Principal['scopes']): Principal => ({ kind: 'apiKey', userId: 'u', organizationId: 'o', role: 'OWNER', tier: 'PRO', apiKeyId: 'k', scopes });
const session: Principal = { kind: 'session', userId: 'u', organizationId: 'o', role: 'VIEWER', tier: 'FREE' };

describe('API key scopes', () => {
  it('a route needs its own scope, else its permission’s, else `all`', () => {
    expect(requiredScope(Permissions.read, undefined)).toBe('links:read');
    expect(requiredScope(Permissions.read, 'analytics:read')).toBe('analytics:read');
    expect(requiredScope(Permissions.projectsDelete, undefined)).toBe('links:write');
    expect(requiredScope(Permissions.pixelsManage, undefined)).toBe('webhooks:write');
    expect(requiredScope(Permissions.domainsManage, undefined)).toBe('domains:write');
    expect(requiredScope(Permissions.membersManage, undefined)).toBe('all');
    expect(requiredScope(undefined, undefined)).toBe('all');
  });

  it('a key holds `all` or the scope itself; sessions are not limited by scopes', () => {
    expect(principalHasScope(key(['links:read']), 'links:read')).toBe(true);
    expect(principalHasScope(key(['links:read']), 'links:write')).toBe(false);
    expect(principalHasScope(key(['links:read']), 'all')).toBe(false);
    expect(principalHasScope(key(['all']), 'conversions:write')).toBe(true);
    expect(principalHasScope(key(undefined), 'domains:write')).toBe(true);
    expect(principalHasScope(session, 'all')).toBe(true);
  });

  it('stores scopes unique and in canonical order, `all` alone', () => {
    expect(normalizeScopes(['links:write', 'links:read', 'links:write'])).toEqual(['links:read', 'links:write']);
    expect(normalizeScopes(['analytics:read', 'all'])).toEqual(['all']);
    expect(normalizeScopes([])).toEqual(['all']);
    expect(normalizeScopes(undefined)).toEqual(['all']);
  });
});
