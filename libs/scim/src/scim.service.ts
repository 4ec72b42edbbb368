import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation, PasswordHasher } from '@dl/auth';
import { PrismaTx, Role } from '@dl/platform/db';
import { isUuid } from '@dl/platform/validation';
import { ScimError, scimNotFound } from './scim-errors';
import { parseUserFilter } from './scim-filter';
import { GROUPS, listResponse, toScimGroup, toScimUser } from './scim-resources';
import { ScimMemberRow, ScimRepository } from './scim.repository';

const DEFAULT_COUNT = 100;
const MAX_COUNT = 200;
const DEFAULT_ROLE: Role = 'MEMBER';
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `startIndex` and `count` as RFC 7644 §3.4.2.4 reads them: below 1 is 1, a negative count is 0. */
export function paging(startIndex: unknown, count: unknown): { startIndex: number; count: number } {
  const int = (v: unknown) => (typeof v === 'string' && /^-?\d{1,9}$/.test(v) ? Number(v) : typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  const s = int(startIndex);
  const c = int(count);
  if ((startIndex !== undefined && s === undefined) || (count !== undefined && c === undefined)) {
    throw new ScimError(400, 'startIndex and count must be integers', 'invalidValue');
  }
  return { startIndex: Math.max(1, s ?? 1), count: Math.min(MAX_COUNT, Math.max(0, c ?? DEFAULT_COUNT)) };
}

/** A SCIM boolean: true/false, or the strings some identity providers send ("False"). */
function scimBoolean(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  return undefined;
}

function displayNameOf(body: Json): string | undefined {
  const name = isObject(body.name) ? body.name : {};
  const candidates = [
    body.displayName,
    name.formatted,
    [name.givenName, name.familyName].filter((p) => typeof p === 'string' && p.trim()).join(' '),
  ];
  const found = candidates.find((c): c is string => typeof c === 'string' && c.trim().length > 0);
  return found?.trim().slice(0, 200);
}

/**
 * SCIM 2.0 Users and Groups of one organization (decisions §25, RFC 7643/7644). A User is a
 * membership (its id the user's id, `userName` the email); the four Groups are the roles.
 * Deprovisioning (`active: false`, DELETE) removes the membership, revokes the member's keys
 * and drops every cached credential of the organization, so the member's sessions stop at once.
 */
@Injectable()
export class ScimService {
  constructor(
    private readonly repo: ScimRepository,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditSink,
  ) {}

  async listUsers(organizationId: string, q: { filter?: unknown; startIndex?: unknown; count?: unknown }, baseUrl: string) {
    if (q.filter !== undefined && typeof q.filter !== 'string') throw new ScimError(400, 'filter must be a string', 'invalidFilter');
    const filter = parseUserFilter(q.filter);
    const { startIndex, count } = paging(q.startIndex, q.count);
    const { total, rows } = await this.repo.listMembers(organizationId, { email: filter?.userName, offset: startIndex - 1, limit: count });
    return listResponse(rows.map((r) => toScimUser(r, baseUrl)), total, startIndex);
  }

  async getUser(organizationId: string, id: string, baseUrl: string) {
    return toScimUser(await this.member(organizationId, id), baseUrl);
  }

  async createUser(organizationId: string, body: unknown, baseUrl: string) {
    if (!isObject(body)) throw new ScimError(400, 'The body must be a User', 'invalidSyntax');
    const userName = typeof body.userName === 'string' ? body.userName.trim().toLowerCase() : '';
    if (!EMAIL.test(userName)) throw new ScimError(400, 'userName must be an email address', 'invalidValue');
    if (scimBoolean(body.active) === false) throw new ScimError(400, 'A user is created active', 'invalidValue');
    const name = displayNameOf(body) ?? userName.split('@')[0];
    const passwordHash = await this.passwords.hash(randomBytes(32).toString('base64url'));
    const userId = await this.repo.transaction(async (tx) => {
      const existing = await this.repo.findUserByEmail(tx, userName);
      if (existing && (await this.repo.findMember(organizationId, existing.id, tx))) {
        throw new ScimError(409, `User ${userName} already exists`, 'uniqueness');
      }
      const user = existing ?? (await this.repo.createUser(tx, { email: userName, name, passwordHash }));
      await this.repo.addMember(tx, organizationId, user.id, DEFAULT_ROLE);
      return user.id;
    }).catch((err: unknown) => {
      if ((err as { code?: string }).code === 'P2002') throw new ScimError(409, `User ${userName} already exists`, 'uniqueness');
      throw err;
    });
    this.audit.record({ organizationId, action: 'scim.user_provisioned', targetId: userId, changes: { userName, role: DEFAULT_ROLE } });
    return toScimUser(await this.member(organizationId, userId), baseUrl);
  }

  /** PUT: the name, and `active: false` deprovisions. `userName` cannot change (the account's email). */
  async replaceUser(organizationId: string, id: string, body: unknown, baseUrl: string) {
    if (!isObject(body)) throw new ScimError(400, 'The body must be a User', 'invalidSyntax');
    return this.apply(organizationId, id, { active: scimBoolean(body.active), name: displayNameOf(body) }, baseUrl);
  }

  /** PATCH (RFC 7644 §3.5.2): `active`, `displayName` and `name.*` are applied; other attributes are read-only here and ignored. */
  async patchUser(organizationId: string, id: string, body: unknown, baseUrl: string) {
    const changes: { active?: boolean; name?: string } = {};
    for (const op of operations(body)) {
      if (op.op === 'remove') continue;
      const values: Json = op.path ? { [op.path]: op.value } : isObject(op.value) ? op.value : {};
      for (const [path, value] of Object.entries(values)) {
        const key = path.toLowerCase();
        if (key === 'active') {
          const active = scimBoolean(value);
          if (active === undefined) throw new ScimError(400, 'active must be a boolean', 'invalidValue');
          changes.active = active;
        } else if (key === 'displayname' || key === 'name.formatted') {
          if (typeof value === 'string' && value.trim()) changes.name = value.trim().slice(0, 200);
        } else if (key === 'name' && isObject(value)) {
          changes.name = displayNameOf({ name: value }) ?? changes.name;
        }
      }
    }
    return this.apply(organizationId, id, changes, baseUrl);
  }

  async deleteUser(organizationId: string, id: string): Promise<void> {
    await this.deprovision(organizationId, await this.member(organizationId, id));
  }

  async listGroups(organizationId: string, q: { startIndex?: unknown; count?: unknown }, baseUrl: string) {
    const { startIndex, count } = paging(q.startIndex, q.count);
    const all = await Promise.all(GROUPS.map(async (g) => toScimGroup(g, await this.repo.listByRole(organizationId, g.role), baseUrl)));
    return listResponse(all.slice(startIndex - 1, startIndex - 1 + count), all.length, startIndex);
  }

  async getGroup(organizationId: string, id: string, baseUrl: string) {
    const group = GROUPS.find((g) => g.id === id);
    if (!group) throw scimNotFound('Group', id);
    return toScimGroup(group, await this.repo.listByRole(organizationId, group.role), baseUrl);
  }

  /**
   * PATCH of a group's `members` sets roles: `add` (or `replace`) gives each listed member the
   * group's role; `remove` (a list, or `members[value eq "<id>"]`) puts a member of the group
   * back to Member. An organization keeps at least one owner (409 mutability).
   */
  async patchGroup(organizationId: string, id: string, body: unknown, baseUrl: string) {
    const group = GROUPS.find((g) => g.id === id);
    if (!group) throw scimNotFound('Group', id);
    const changes: Array<{ userId: string; role: Role }> = [];
    for (const op of operations(body)) {
      const filtered = /^members\[value eq "([^"]+)"\]$/i.exec(op.path ?? '');
      const path = (op.path ?? 'members').toLowerCase();
      if (!filtered && path !== 'members') continue;
      const ids = filtered ? [filtered[1]] : memberIds(op.value);
      if (op.op === 'remove') for (const userId of ids) changes.push({ userId, role: group.role === DEFAULT_ROLE ? 'VIEWER' : DEFAULT_ROLE });
      else for (const userId of ids) changes.push({ userId, role: group.role });
    }
    const applied = await this.repo.transaction(async (tx) => {
      await this.repo.lockOrganization(tx, organizationId);
      const done: Array<{ userId: string; from: Role; to: Role }> = [];
      for (const c of changes) {
        const m = isUuid(c.userId) ? await this.repo.findMember(organizationId, c.userId, tx) : null;
        if (!m) throw new ScimError(400, `User ${c.userId.slice(0, 100)} is not a member`, 'noTarget');
        const removal = c.role !== group.role;
        if (removal && m.role !== group.role) continue;
        if (m.role === c.role) continue;
        await this.keepAnOwner(tx, organizationId, m.role, c.role);
        await this.repo.setRole(tx, organizationId, c.userId, c.role);
        done.push({ userId: c.userId, from: m.role, to: c.role });
      }
      return done;
    });
    if (applied.length) await this.invalidation.organizationChanged(organizationId);
    for (const a of applied) {
      this.audit.record({ organizationId, action: 'member.role_changed', targetId: a.userId, changes: { role: { from: a.from, to: a.to }, via: 'scim' } });
    }
    return this.getGroup(organizationId, id, baseUrl);
  }

  private async apply(organizationId: string, id: string, changes: { active?: boolean; name?: string }, baseUrl: string) {
    const m = await this.member(organizationId, id);
    if (changes.active === false) {
      await this.deprovision(organizationId, m);
      // The membership is gone: the resource is answered as it was, inactive.
      return { ...toScimUser(m, baseUrl), active: false };
    }
    if (changes.name && changes.name !== m.name) {
      await this.repo.transaction((tx) => this.repo.setName(tx, organizationId, m.userId, changes.name!));
      this.audit.record({ organizationId, action: 'scim.user_updated', targetId: m.userId, changes: { name: changes.name } });
    }
    return toScimUser(await this.member(organizationId, id), baseUrl);
  }

  private async deprovision(organizationId: string, m: ScimMemberRow): Promise<void> {
    const keys = await this.repo.transaction(async (tx) => {
      await this.repo.lockOrganization(tx, organizationId);
      const current = await this.repo.findMember(organizationId, m.userId, tx);
      if (!current) throw scimNotFound('User', m.userId);
      await this.keepAnOwner(tx, organizationId, current.role, null);
      return this.repo.removeMember(tx, organizationId, m.userId);
    });
    await this.invalidation.revokedKeys(keys);
    await this.invalidation.organizationChanged(organizationId);
    this.audit.record({ organizationId, action: 'scim.user_deprovisioned', targetId: m.userId, changes: { userName: m.email, role: m.role } });
  }

  private async keepAnOwner(tx: PrismaTx, organizationId: string, from: Role, to: Role | null): Promise<void> {
    if (from === 'OWNER' && to !== 'OWNER' && (await this.repo.countOwners(tx, organizationId)) <= 1) {
      throw new ScimError(409, 'An organization must keep at least one owner', 'mutability');
    }
  }

  private async member(organizationId: string, id: string): Promise<ScimMemberRow> {
    const m = isUuid(id) ? await this.repo.findMember(organizationId, id) : null;
    if (!m) throw scimNotFound('User', id);
    return m;
  }
}

interface PatchOperation {
  op: 'add' | 'replace' | 'remove';
  path?: string;
  value?: unknown;
}

/** The `Operations` of a PatchOp body; anything malformed is 400 invalidSyntax. */
function operations(body: unknown): PatchOperation[] {
  if (!isObject(body) || !Array.isArray(body.Operations) || body.Operations.length > 100) {
    throw new ScimError(400, 'The body must be a PatchOp with Operations', 'invalidSyntax');
  }
  return body.Operations.map((raw) => {
    const op = isObject(raw) && typeof raw.op === 'string' ? raw.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw new ScimError(400, 'op must be add, replace or remove', 'invalidSyntax');
    const path = (raw as Json).path;
    if (path !== undefined && (typeof path !== 'string' || path.length > 200)) throw new ScimError(400, 'path must be a string', 'invalidPath');
    return { op, path: path as string | undefined, value: (raw as Json).value };
  });
}

function memberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((v) => (isObject(v) && typeof v.value === 'string' ? v.value : '')).map((v) => {
    if (!v) throw new ScimError(400, 'members must be a list of {value}', 'invalidValue');
    return v;
  });
}
