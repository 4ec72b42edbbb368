import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { hashApiKey, OrganizationNotFoundError } from '@dl/auth';
import { AppConfig } from '@dl/platform/config';
import { createIdentityContext, IdentityContext } from './context';

export const DEMO_SLUG = 'demo';
export const DEMO_EMAIL = 'demo@deeplink.local';
const DEMO_KEY_NAME = 'demo key (npm start)';

export interface DemoInfo {
  organization: { id: string; name: string; slug: string; tier: string };
  /** The organization's `default` template (link creation names a template). */
  templateId: string | null;
  login: { email: string; password: string };
  apiKey: string;
  /** Ready to paste. */
  try: string[];
}

interface StoredDemo {
  databaseUrl: string;
  organizationId: string;
  password: string;
  apiKey: string;
  /** When `npm start` gave the demo organization its first-start history (decisions §19). */
  seededAt?: string;
}

function stateFile(varDir: string): string {
  return join(varDir, 'demo.json');
}

/** Whether `npm start` already seeded the demo history for this database (var/demo.json). */
export function demoSeededAt(varDir: string, databaseUrl: string): string | null {
  return readState(stateFile(varDir), databaseUrl)?.seededAt ?? null;
}

/** Remembers that the demo history was seeded, so a restart does not add it again. */
export function markDemoSeeded(varDir: string, databaseUrl: string, at: Date = new Date()): void {
  const file = stateFile(varDir);
  const state = readState(file, databaseUrl);
  if (!state) return;
  writeFileSync(file, JSON.stringify({ ...state, seededAt: at.toISOString() }, null, 2), { mode: 0o600 });
}

function readState(file: string, databaseUrl: string): StoredDemo | null {
  if (!existsSync(file)) return null;
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as StoredDemo;
    return s.databaseUrl === databaseUrl ? s : null;
  } catch {
    return null;
  }
}

async function stillValid(ctx: IdentityContext, organizationId: string, apiKey: string): Promise<boolean> {
  const keys = await ctx.keys.listForOrganization(organizationId);
  return keys.some((k) => k.keyHash === hashApiKey(apiKey));
}

/**
 * Makes sure a demo organization (slug `demo`, UNLIMITED plan so the laptop demo is
 * not throttled), its owner and a `dl_` key exist, and returns what `npm start`
 * prints. The key and password are kept in var/demo.json (git-ignored, mode 600) so a
 * restart prints the same ones; if that file is gone or the key was revoked, a new
 * key replaces the old demo key and the password is reset.
 */
export async function ensureDemo(
  config: AppConfig,
  root: string = join(__dirname, '..', '..'),
  varDir: string = join(root, 'var'),
): Promise<DemoInfo> {
  const file = stateFile(varDir);
  const ctx = await createIdentityContext(config);
  try {
    let state = readState(file, config.DATABASE_URL);
    let org = await ctx.accounts.findOrganization(DEMO_SLUG).catch((err) => {
      if (err instanceof OrganizationNotFoundError) return null;
      throw err;
    });
    if (!org) {
      const password = randomBytes(9).toString('base64url');
      const created = await ctx.accounts.signup({
        email: DEMO_EMAIL,
        password,
        name: 'Demo Owner',
        organizationName: 'Demo',
        tier: 'UNLIMITED',
        emailVerified: true,
      });
      org = created.organization;
      const key = await ctx.keys.issue(org.id, created.user.id, org.tier, DEMO_KEY_NAME);
      state = { databaseUrl: config.DATABASE_URL, organizationId: org.id, password, apiKey: key.key };
    } else if (!state || state.organizationId !== org.id || !(await stillValid(ctx, org.id, state.apiKey))) {
      const password = state?.organizationId === org.id ? state.password : randomBytes(9).toString('base64url');
      await ctx.accounts.resetPassword(DEMO_EMAIL, password);
      const owner = await ctx.members.findByEmail(org.id, DEMO_EMAIL);
      await ctx.keys.revokeByName(org.id, owner.userId, DEMO_KEY_NAME);
      const key = await ctx.keys.issue(org.id, owner.userId, org.tier, DEMO_KEY_NAME);
      state = { databaseUrl: config.DATABASE_URL, organizationId: org.id, password, apiKey: key.key };
    }
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(state, null, 2), { mode: 0o600 });
    const api = `http://localhost:${config.API_PORT}`;
    const template = await ctx.prisma.template.findFirst({ where: { organizationId: org.id, slug: 'default' }, select: { id: true } });
    return {
      organization: { id: org.id, name: org.name, slug: org.slug, tier: org.tier },
      templateId: template?.id ?? null,
      login: { email: DEMO_EMAIL, password: state.password },
      apiKey: state.apiKey,
      try: [
        `curl -H "Authorization: Bearer ${state.apiKey}" ${api}/api/usage`,
        `curl -X POST ${api}/auth/login -H 'content-type: application/json' -d '{"email":"${DEMO_EMAIL}","password":"${state.password}"}'`,
      ],
    };
  } finally {
    await ctx.close();
  }
}
