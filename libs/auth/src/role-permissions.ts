import { Role, Tier } from '@dl/platform/db';
import { AuthMessages } from './auth.errors';
import { Permission, Permissions } from './principal';

const P = Permissions;
const VIEWER: Permission[] = [P.read, P.keysManage, P.conversionsRead];
const MEMBER: Permission[] = [...VIEWER, P.linksWrite, P.templatesWrite, P.projectsWrite, P.analyticsEvents, P.conversionsWrite];
const ADMIN: Permission[] = [
  ...MEMBER,
  P.templatesDelete,
  P.projectsDelete,
  P.webhooksManage,
  P.appsManage,
  P.pixelsManage,
  P.analyticsExport,
  P.membersManage,
  P.domainsManage,
  P.integrationsManage,
  P.billingInvoices,
  P.organizationManage,
  P.auditRead,
];
const OWNER: Permission[] = [...ADMIN, P.reportsRegenerate, P.billingManage, P.organizationOwn];

/** The permission matrix of decisions §3. Every role may manage its own API keys. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  VIEWER: new Set(VIEWER),
  MEMBER: new Set(MEMBER),
  ADMIN: new Set(ADMIN),
  OWNER: new Set(OWNER),
};

export function roleAllows(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role]?.has(permission) ?? false;
}

/**
 * Permissions that also need a paid plan, with the 403 message each answers on FREE
 * (decisions §5: event analytics; §23: conversions).
 */
export const PLAN_GATED_PERMISSIONS: ReadonlyMap<Permission, string> = new Map([
  [P.analyticsEvents, AuthMessages.planEventAnalytics],
  [P.analyticsExport, AuthMessages.planEventAnalytics],
  [P.conversionsRead, AuthMessages.planConversions],
  [P.conversionsWrite, AuthMessages.planConversions],
  [P.integrationsManage, AuthMessages.planConversions],
]);

export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'MEMBER', 'VIEWER'];
export const TIERS: readonly Tier[] = ['FREE', 'PRO', 'BUSINESS', 'UNLIMITED'];
