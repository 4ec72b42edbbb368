import { PlansService } from '@dl/auth';
import { Tier } from '@dl/platform/db';
import { createTestEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { LinkLookup } from './link-lookup.service';
import { resolveNewLink } from './link-values';
import { NewLinkRow } from './link.types';
import { LinkWriter } from './link-writer';
import { LinksRepository } from './links.repository';
import { LinksPg } from './links-pg';
import { ShortCodeExhaustedError, ShortCodeInUseError } from './links.errors';

class FixedCodes extends LinkWriter {
  codes: string[] = [];
  protected override newCode(): string {
    return this.codes.shift() ?? 'Fallback';
  }
}

describe(LinksRepository.name, () => {
  let env: TestEnv;
  let org: SeededOrganization;
  let repo: LinksRepository;
  let writer: FixedCodes;
  let pg: LinksPg;

  const row = (shortCode: string, custom = false, extra: Partial<NewLinkRow> = {}): NewLinkRow => ({
    ...resolveNewLink({}, { originalUrl: `https://example.com/${shortCode}` }),
    organizationId: org.organization.id,
    userId: org.owner.user.id,
    projectId: null,
    templateId: org.template.id,
    templateSlug: 'default',
    domainId: null,
    domainName: '',
    shortCode,
    custom,
    migrationMetadata: null,
    ...extra,
  });

  beforeAll(async () => {
    env = await createTestEnv();
    org = await seedOrganization(env, { tier: Tier.PRO });
    pg = new LinksPg(env.config);
    repo = new LinksRepository(env.prisma, pg);
    writer = new FixedCodes(repo, new PlansService(env.config));
  });
  afterAll(async () => {
    await pg?.onModuleDestroy();
    await env?.teardown();
  });

  it('one multi-row INSERT returns the inserted rows and the conflicting ones', async () => {
    const first = await repo.insertLinks([row('RepoA001'), row('RepoA002')]);
    expect(first.inserted.map((l) => l.shortCode).sort()).toEqual(['RepoA001', 'RepoA002']);
    expect(first.inserted[0]).toMatchObject({ templateSlug: 'default', isActive: true, attributionWindowHours: 168, tags: [] });
    const second = await repo.insertLinks([row('RepoA002'), row('RepoA003')]);
    expect(second.inserted.map((l) => l.shortCode)).toEqual(['RepoA003']);
    expect(second.conflicts.map((r) => r.shortCode)).toEqual(['RepoA002']);
  });

  it('a random code that collides is retried with a fresh one, input order kept', async () => {
    writer.codes = ['Fresh001'];
    const links = await writer.insertAll(org.organization.id, Tier.PRO, [row('RepoB001'), row('RepoA001'), row('RepoB002')]);
    expect(links.map((l) => l.shortCode)).toEqual(['RepoB001', 'Fresh001', 'RepoB002']);
  });

  it('gives up after 5 colliding rounds with 400, writing nothing', async () => {
    writer.codes = ['RepoA001', 'RepoA001', 'RepoA001', 'RepoA001', 'RepoA001'];
    const before = await repo.countLinks(org.organization.id);
    await expect(writer.insertAll(org.organization.id, Tier.PRO, [row('RepoC001'), row('RepoA002')])).rejects.toBeInstanceOf(ShortCodeExhaustedError);
    expect(await repo.countLinks(org.organization.id)).toBe(before);
  });

  it('a taken custom code is a 409 and rolls the batch back', async () => {
    const before = await repo.countLinks(org.organization.id);
    await expect(writer.insertAll(org.organization.id, Tier.PRO, [row('RepoD001'), row('RepoA003', true)])).rejects.toBeInstanceOf(ShortCodeInUseError);
    expect(await repo.countLinks(org.organization.id)).toBe(before);
  });

  it('LinkLookup: getLinkForOrganization scoped', async () => {
    const lookup = new LinkLookup(repo);
    const [link] = await repo.findByShortCodes(org.organization.id, ['RepoA001']);
    expect(link).toMatchObject({
      organizationId: org.organization.id,
      shortCode: 'RepoA001',
      originalUrl: 'https://example.com/RepoA001',
      isActive: true,
      expiresAt: null,
      attributionWindowHours: 168,
      migrationMetadata: null,
    });
    expect(await repo.findByShortCodes(org.organization.id, ['nope'])).toEqual([]);
    const other = await seedOrganization(env);
    await expect(lookup.getLinkForOrganization(other.organization.id, link!.id)).rejects.toMatchObject({ statusCode: 404, message: 'Link not found' });
    await expect(lookup.getLinkForOrganization(org.organization.id, 'not-a-uuid')).rejects.toMatchObject({ statusCode: 404 });
    expect((await lookup.getLinkForOrganization(org.organization.id, link!.id)).id).toBe(link!.id);
  });

});
