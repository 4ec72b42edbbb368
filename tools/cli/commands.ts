import { ROLES, TIERS } from '@dl/auth';
import { Queue } from 'bullmq';
import { Role, Tier } from '@dl/platform/db';
import { bullOptions, Queues } from '@dl/platform/queue';
import { Command, ParsedArgs, UsageError } from './command';
import { demoSeedCommand } from './demo-seed/demo-seed.cli';
import { importFileCommand } from './import-file/import-file.cli';
import { SAFETY_COMMANDS } from './safety.cli';

function required(flags: Record<string, string>, name: string): string {
  const v = flags[name];
  if (v === undefined || v.trim() === '') throw new UsageError(`Missing --${name}`);
  return v;
}

function positionals(args: ParsedArgs, names: string[]): string[] {
  if (args.positional.length < names.length) throw new UsageError(`Missing ${names.slice(args.positional.length).map((n) => `<${n}>`).join(' ')}`);
  if (args.positional.length > names.length) throw new UsageError(`Unexpected argument "${args.positional[names.length]}"`);
  return args.positional;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function email(value: string, flag: string): string {
  if (!EMAIL.test(value) || value.length > 254) throw new UsageError(`--${flag} must be a valid email address`);
  return value;
}

function password(value: string, flag: string): string {
  if (value.length < 10 || value.length > 200) throw new UsageError(`--${flag} must be 10-200 characters`);
  return value;
}

function nameOf(value: string, flag: string): string {
  if (!value.trim() || value.length > 100) throw new UsageError(`--${flag} must be 1-100 characters`);
  return value;
}

function localPart(address: string): string {
  return address.split('@')[0].slice(0, 100) || address;
}

/** The operator CLI of decisions §2 (`demo:seed` belongs to the reports work). */
export const COMMANDS: Record<string, Command> = {
  'org:create': {
    usage: 'org:create --name <name> --owner-email <email> --owner-password <pw> [--owner-name <name>] [--tier <TIER>]',
    options: ['name', 'owner-email', 'owner-password', 'owner-name', 'tier'],
    async run(ctx, args) {
      positionals(args, []);
      const f = args.flags;
      const ownerEmail = email(required(f, 'owner-email'), 'owner-email');
      const tier = f.tier === undefined ? 'FREE' : tierOf(f.tier);
      const r = await ctx.accounts.signup({
        organizationName: nameOf(required(f, 'name'), 'name'),
        email: ownerEmail,
        password: password(required(f, 'owner-password'), 'owner-password'),
        name: nameOf(f['owner-name'] ?? localPart(ownerEmail), 'owner-name'),
        tier,
        // The operator vouches for the address (decisions §20): no verification email.
        emailVerified: true,
      });
      return {
        organization: { id: r.organization.id, name: r.organization.name, slug: r.organization.slug, tier: r.organization.tier },
        user: { id: r.user.id, email: r.user.email, name: r.user.name },
      };
    },
  },
  'user:add': {
    usage: 'user:add <org> --email <email> --password <pw> --role <OWNER|ADMIN|MEMBER|VIEWER> [--name <name>]',
    options: ['email', 'password', 'role', 'name'],
    async run(ctx, args) {
      const [ref] = positionals(args, ['org']);
      const f = args.flags;
      const address = email(required(f, 'email'), 'email');
      const role = roleOf(required(f, 'role'));
      const pw = password(required(f, 'password'), 'password');
      const org = await ctx.accounts.findOrganization(ref);
      const m = await ctx.members.addToOrganization(
        org.id,
        { email: address, password: pw, role, name: nameOf(f.name ?? localPart(address), 'name') },
        true,
      );
      return { user: { id: m.userId, email: m.email, name: m.name }, role: m.role };
    },
  },
  'org:set-tier': {
    usage: 'org:set-tier <org> <FREE|PRO|BUSINESS|UNLIMITED>',
    options: [],
    async run(ctx, args) {
      const [ref, tier] = positionals(args, ['org', 'tier']);
      const org = await ctx.accounts.setTier(ref, tierOf(tier));
      return { organization: { id: org.id, name: org.name, slug: org.slug, tier: org.tier } };
    },
  },
  'key:create': {
    usage: 'key:create <org> --email <member email> --name <name>',
    options: ['email', 'name'],
    async run(ctx, args) {
      const [ref] = positionals(args, ['org']);
      const f = args.flags;
      const address = email(required(f, 'email'), 'email');
      const keyName = nameOf(required(f, 'name'), 'name');
      const org = await ctx.accounts.findOrganization(ref);
      const member = await ctx.members.findByEmail(org.id, address);
      const key = await ctx.keys.issue(org.id, member.userId, org.tier, keyName);
      return { id: key.id, name: key.name, key: key.key };
    },
  },
  'jobs:retry-failed': {
    usage: 'jobs:retry-failed <queue>',
    options: [],
    /**
     * Puts a queue's failed jobs (kept 7 days, at most 5,000) back to wait: after an upgrade that
     * started a producer before its consumer (docs/decisions/clicks.md, "Upgrades go workers first"), or an
     * outage that outlasted a job's attempts. Every consumer is idempotent, so a retry never counts twice.
     */
    async run(ctx, args) {
      const [name] = positionals(args, ['queue']);
      const names: string[] = Object.values(Queues);
      if (!names.includes(name)) throw new UsageError(`Unknown queue "${name}" (one of ${names.join(', ')})`);
      const queue = new Queue(name, bullOptions(ctx.config));
      try {
        const failed = await queue.getFailedCount();
        await queue.retryJobs({ state: 'failed' });
        return { queue: name, retried: failed - (await queue.getFailedCount()) };
      } finally {
        await queue.close();
      }
    },
  },
  ...SAFETY_COMMANDS,
  'demo:seed': demoSeedCommand,
  'import:file': importFileCommand,
};

function tierOf(value: string): Tier {
  const t = value.toUpperCase() as Tier;
  if (!TIERS.includes(t)) throw new UsageError(`Unknown tier "${value}" (one of ${TIERS.join(', ')})`);
  return t;
}

function roleOf(value: string): Role {
  const r = value.toUpperCase() as Role;
  if (!ROLES.includes(r)) throw new UsageError(`Unknown role "${value}" (one of ${ROLES.join(', ')})`);
  return r;
}
