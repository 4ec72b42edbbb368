import { NO_AUDIT } from '@dl/audit';
import { randomBytes } from 'node:crypto';
import {
  AccountsRepository,
  AccountsService,
  ApiKeysRepository,
  ApiKeysService,
  MembersRepository,
  MembersService,
  NO_CACHED_CREDENTIALS,
  OrganizationRow,
  PasswordHasher,
  PlansService,
  Principal,
  SessionsRepository,
  SessionsService,
  SessionTokens,
} from '@dl/auth';
import { Role, Tier } from '@dl/platform/db';
import { TestEnv } from './harness';

/** Password of every seeded user. */
export const SEED_PASSWORD = 'correct-horse-battery-staple';

export interface SeededUser {
  user: { id: string; email: string; name: string };
  role: Role;
  /** Dashboard session (HS256 with env.config.JWT_SECRET) of a `sessions` row of its own. */
  jwt: string;
  /** A `dl_` key acting as this user. */
  apiKey: string;
  apiKeyId: string;
}

export interface SeededOrganization {
  organization: OrganizationRow;
  owner: SeededUser;
  /** The `default` template created by signup. */
  template: { id: string; slug: 'default' };
}

/**
 * Seeded users all have SEED_PASSWORD: its scrypt hash (a real one, of the configured cost) is
 * made once per test process and shared, instead of ~45 ms of CPU per seeded user. Logins
 * verify it with the real verifier; only the salt is common to the seeded users.
 */
class SeedPasswordHasher extends PasswordHasher {
  private static readonly made = new Map<string, Promise<string>>();

  override hash(password: string): Promise<string> {
    const key = `${this.log2N}:${password}`;
    let hash = SeedPasswordHasher.made.get(key);
    if (!hash) SeedPasswordHasher.made.set(key, (hash = super.hash(password)));
    return hash;
  }
}

function services(env: TestEnv) {
  const accountsRepo = new AccountsRepository(env.prisma);
  const tokens = new SessionTokens(env.config);
  // Seeding only creates rows, so there is nothing cached to invalidate.
  const sessions = new SessionsService(env.config, tokens, new SessionsRepository(env.prisma), accountsRepo, NO_CACHED_CREDENTIALS, NO_AUDIT);
  const passwords = new SeedPasswordHasher(env.config);
  const accounts = new AccountsService(accountsRepo, sessions, NO_CACHED_CREDENTIALS, passwords, NO_AUDIT);
  // Seeding records no audit entries: the audit specs count only what they do themselves.
  const members = new MembersService(new MembersRepository(env.prisma), accountsRepo, NO_CACHED_CREDENTIALS, passwords, NO_AUDIT);
  const keys = new ApiKeysService(new ApiKeysRepository(env.prisma), new PlansService(env.config), NO_CACHED_CREDENTIALS, NO_AUDIT);
  return { accounts, members, keys, sessions };
}

function unique(): string {
  return randomBytes(5).toString('hex');
}

/**
 * Signs up a new organization through the real services (owner, `default` template),
 * on FREE unless `tier` says otherwise, and gives the owner a JWT and an API key.
 * The key counts against the plan's key limit (FREE allows 1).
 */
export async function seedOrganization(
  env: TestEnv,
  opts: { tier?: Tier; name?: string } = {},
): Promise<SeededOrganization> {
  const { accounts, keys } = services(env);
  const id = unique();
  const signup = await accounts.signup({
    email: `owner-${id}@example.test`,
    password: SEED_PASSWORD,
    name: `Owner ${id}`,
    organizationName: opts.name ?? `Org ${id}`,
    tier: opts.tier,
  });
  const key = await keys.issue(signup.organization.id, signup.user.id, signup.organization.tier, 'seed key');
  return {
    organization: signup.organization,
    owner: { user: signup.user, role: 'OWNER', jwt: signup.session.accessToken, apiKey: key.key, apiKeyId: key.id },
    template: { id: signup.templateId, slug: 'default' },
  };
}

/**
 * Adds a new user with `role` to the organization, with a JWT and an API key.
 * The key bypasses the plan's key limit (a seeding convenience: members of a FREE
 * organization need keys too), so it is written through the repository directly.
 */
export async function addMember(env: TestEnv, organizationId: string, role: Role): Promise<SeededUser> {
  const { members, sessions } = services(env);
  const id = unique();
  const member = await members.addToOrganization(
    organizationId,
    { email: `${role.toLowerCase()}-${id}@example.test`, name: `${role} ${id}`, password: SEED_PASSWORD, role },
    false,
  );
  const unlimited = new ApiKeysService(
    new ApiKeysRepository(env.prisma),
    new PlansService({ ...env.config, PLAN_LIMITS: JSON.stringify(allTiers({ apiKeys: null })) }),
    NO_CACHED_CREDENTIALS,
    NO_AUDIT,
  );
  const key = await unlimited.issue(organizationId, member.userId, 'FREE', `seed key ${role}`);
  return {
    user: { id: member.userId, email: member.email, name: member.name },
    role,
    jwt: (await sessions.start(member.userId, organizationId, role)).accessToken,
    apiKey: key.key,
    apiKeyId: key.id,
  };
}

function allTiers(limits: Record<string, unknown>): Record<Tier, Record<string, unknown>> {
  return { FREE: limits, PRO: limits, BUSINESS: limits, UNLIMITED: limits };
}

/** `{ Authorization: 'Bearer <token>' }` for supertest's `.set(...)`. */
export function authHeader(tokenOrKey: string): { Authorization: string } {
  return { Authorization: `Bearer ${tokenOrKey}` };
}

/** The owner of a seeded organization as the services see a signed-in caller (for medium specs). */
export function ownerPrincipal(o: SeededOrganization): Principal {
  return { kind: 'session', userId: o.owner.user.id, organizationId: o.organization.id, role: Role.OWNER, tier: o.organization.tier };
}
