import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { ClickCapturedJob, newClickId } from '@dl/platform/click-codec';
import { PrismaService, Role, Tier } from '@dl/platform/db';

/** Real user agents for tests, benchmarks and demo data. */
export const USER_AGENTS = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidPhone:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.113 Mobile Safari/537.36',
  iPad: 'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  windowsChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  macSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  facebookBot: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
} as const;

/** IPs the bundled GeoLite2 City database resolves (MaxMind's documented test addresses). */
export const KNOWN_IPS = {
  kettering: '81.2.69.142', // GB, England, Kettering, Europe/London
  plymouth: '2.125.160.216', // GB, England, Plymouth
  karlstad: '89.160.20.112', // SE, Värmland County, Karlstad, Europe/Stockholm
  poulsbo: '216.160.83.56', // US, Washington, Poulsbo, America/Los_Angeles
} as const;

/** Rows straight into organizations, users, templates and links, for click tests and benchmarks. */
export class ClickFixtures {
  private readonly owners = new Map<string, { userId: string; templateId: string }>();

  constructor(private readonly prisma: PrismaService) {}

  async organization(tier: Tier = Tier.PRO, name = 'Acme Inc'): Promise<{ id: string }> {
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO organizations (id, name, slug, tier) VALUES (${id}::uuid, ${name}, ${`org-${id.slice(0, 8)}`}, ${tier}::"Tier")`;
    return { id };
  }

  /** Links and projects of an organization seeded elsewhere (e.g. `seedOrganization`) use its owner and template. */
  useOwner(organizationId: string, userId: string, templateId: string): this {
    this.owners.set(organizationId, { userId, templateId });
    return this;
  }

  private async owner(organizationId: string): Promise<{ userId: string; templateId: string }> {
    const known = this.owners.get(organizationId);
    if (known) return known;
    const userId = randomUUID();
    const templateId = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO users (id, email, name, password_hash) VALUES (${userId}::uuid, ${`owner-${userId.slice(0, 8)}@example.com`}, 'Owner', 'x')`;
    await this.prisma.$executeRaw`
      INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}::uuid, ${userId}::uuid, ${Role.OWNER}::"Role")`;
    await this.prisma.$executeRaw`
      INSERT INTO templates (id, organization_id, name, slug) VALUES (${templateId}::uuid, ${organizationId}::uuid, 'Default', 'default')`;
    const v = { userId, templateId };
    this.owners.set(organizationId, v);
    return v;
  }

  /** A member of `role` and a `dl_` API key of theirs (stored as SHA-256, as the auth library does). */
  async apiKey(organizationId: string, role: Role = Role.OWNER): Promise<{ key: string; userId: string }> {
    const userId = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO users (id, email, name, password_hash) VALUES (${userId}::uuid, ${`${role.toLowerCase()}-${userId.slice(0, 8)}@example.com`}, 'Member', 'x')`;
    await this.prisma.$executeRaw`
      INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}::uuid, ${userId}::uuid, ${role}::"Role")`;
    const key = `dl_${randomBytes(32).toString('hex')}`;
    await this.prisma.$executeRaw`
      INSERT INTO api_keys (organization_id, user_id, name, key_hash, key_prefix)
      VALUES (${organizationId}::uuid, ${userId}::uuid, 'test', ${createHash('sha256').update(key).digest('hex')}, ${key.slice(0, 11)})`;
    return { key, userId };
  }

  async project(organizationId: string, name = 'Campaigns'): Promise<{ id: string }> {
    const { userId } = await this.owner(organizationId);
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO projects (id, organization_id, user_id, name) VALUES (${id}::uuid, ${organizationId}::uuid, ${userId}::uuid, ${name})`;
    return { id };
  }

  async link(
    organizationId: string,
    opts: { title?: string; projectId?: string | null; isActive?: boolean; expiresAt?: Date | null; migrationMetadata?: object } = {},
  ): Promise<{ id: string; shortCode: string }> {
    const { userId, templateId } = await this.owner(organizationId);
    const id = randomUUID();
    const shortCode = `k${id.replace(/-/g, '').slice(0, 9)}`;
    await this.prisma.$executeRaw`
      INSERT INTO links (id, organization_id, user_id, template_id, project_id, short_code, original_url, title, is_active, expires_at, migration_metadata)
      VALUES (${id}::uuid, ${organizationId}::uuid, ${userId}::uuid, ${templateId}::uuid, ${opts.projectId ?? null}::uuid, ${shortCode},
        'https://example.com/landing', ${opts.title ?? `Link ${shortCode}`}, ${opts.isActive ?? true}, ${opts.expiresAt ?? null}::timestamptz,
        ${opts.migrationMetadata ? JSON.stringify(opts.migrationMetadata) : null}::jsonb)`;
    return { id, shortCode };
  }

  /** A stored click row (as the worker writes it), for the reads that join clicks. */
  async click(
    link: { id: string; organizationId: string },
    opts: { clickedAt?: Date; isBot?: boolean; fingerprint?: string | null; visitorHash?: string; countryCode?: string | null } = {},
  ): Promise<{ id: string; clickedAt: Date }> {
    const clickedAt = opts.clickedAt ?? new Date();
    const id = newClickId(clickedAt.getTime());
    await this.prisma.$executeRaw`
      INSERT INTO clicks (id, organization_id, link_id, clicked_at, is_bot, visitor_hash, fingerprint, country_code)
      VALUES (${id}::uuid, ${link.organizationId}::uuid, ${link.id}::uuid, ${clickedAt}, ${opts.isBot ?? false},
        ${opts.visitorHash ?? 'v'}, ${opts.fingerprint ?? null}, ${opts.countryCode ?? null})`;
    return { id, clickedAt };
  }

  async webhook(organizationId: string, events: string[], isActive = true): Promise<{ id: string }> {
    const id = randomUUID();
    await this.prisma.$executeRaw`
      INSERT INTO webhooks (id, organization_id, url, events, secret, is_active)
      VALUES (${id}::uuid, ${organizationId}::uuid, 'http://127.0.0.1:9/hook', ${events}::text[], 'whsec_dGVzdA==', ${isActive})`;
    return { id };
  }
}

/** A raw click as the redirect edge queues it. */
export function rawClick(
  link: { id: string; organizationId: string },
  overrides: Partial<ClickCapturedJob> = {},
): ClickCapturedJob {
  const clickedAt = overrides.clickedAt ?? new Date().toISOString();
  return {
    // As the edge makes it: a UUIDv7 of the click time.
    id: newClickId(Date.parse(clickedAt)),
    linkId: link.id,
    organizationId: link.organizationId,
    clickedAt,
    ip: KNOWN_IPS.kettering,
    userAgent: USER_AGENTS.iPhone,
    referrer: null,
    acceptLanguage: 'en-GB,en;q=0.9',
    query: {},
    ...overrides,
  };
}
