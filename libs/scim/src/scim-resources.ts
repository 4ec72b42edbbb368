import { Role } from '@dl/platform/db';
import { ScimMemberRow } from './scim.repository';

export const SCHEMA_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCHEMA_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCHEMA_LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCHEMA_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

/** The four groups that always exist (decisions §25): a group's id is the role, lower-cased. */
export const GROUPS: ReadonlyArray<{ id: string; role: Role; displayName: string }> = [
  { id: 'owner', role: 'OWNER', displayName: 'Owner' },
  { id: 'admin', role: 'ADMIN', displayName: 'Admin' },
  { id: 'member', role: 'MEMBER', displayName: 'Member' },
  { id: 'viewer', role: 'VIEWER', displayName: 'Viewer' },
];

export function groupOfRole(role: Role) {
  return GROUPS.find((g) => g.role === role)!;
}

/** RFC 7643 §4.1: a member as a SCIM User (`id` the user id, `userName` the email). */
export function toScimUser(row: ScimMemberRow, baseUrl: string) {
  const group = groupOfRole(row.role);
  return {
    schemas: [SCHEMA_USER],
    id: row.userId,
    userName: row.email,
    name: { formatted: row.name },
    displayName: row.name,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: true,
    groups: [{ value: group.id, display: group.displayName, $ref: `${baseUrl}/scim/v2/Groups/${group.id}` }],
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      lastModified: row.updatedAt.toISOString(),
      location: `${baseUrl}/scim/v2/Users/${row.userId}`,
    },
  };
}

export function toScimGroup(group: (typeof GROUPS)[number], members: ScimMemberRow[], baseUrl: string) {
  return {
    schemas: [SCHEMA_GROUP],
    id: group.id,
    displayName: group.displayName,
    members: members.map((m) => ({ value: m.userId, display: m.email, $ref: `${baseUrl}/scim/v2/Users/${m.userId}` })),
    meta: { resourceType: 'Group', location: `${baseUrl}/scim/v2/Groups/${group.id}` },
  };
}

/** RFC 7644 §3.4.2: `totalResults`, 1-based `startIndex`, `itemsPerPage`, `Resources`. */
export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [SCHEMA_LIST], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}
