import { PlansService } from '@dl/auth';
import { Tier } from '@dl/platform/db';
import { LINK_FIELD_KEYS, linkField, LinkFieldKind } from '@dl/link-fields';
import { createTestEnv, sampleLinkValues, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { LINK_VALUE_FALLBACKS } from './link-columns';
import { resolveNewLink } from './link-values';
import { NewLinkRow } from './link.types';
import { LinkWriter } from './link-writer';
import { LinksRepository } from './links.repository';
import { LinksPg } from './links-pg';
import { ShortCodeExhaustedError, ShortCodeInUseError, TemplateNotFoundError } from './links.errors';

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
    writer = new FixedCodes(repo, new PlansService(env.config), env.config);
  });
  afterAll(async () => {
    await pg?.onModuleDestroy();
    await env?.teardown();
  });

  it('one multi-row INSERT returns the inserted rows and the conflicting ones', async () => {
    const first = await repo.insertLinks([row('RepoA001'), row('RepoA002')]);
    expect(first.map((l) => l?.shortCode)).toEqual(['RepoA001', 'RepoA002']);
    expect(first[0]).toMatchObject({ templateSlug: 'default', isActive: true, attributionWindowHours: 168, tags: [], domainName: '', domainId: null });
    const second = await repo.insertLinks([row('RepoA002'), row('RepoA003')]);
    expect(second.map((l) => l?.shortCode ?? null)).toEqual([null, 'RepoA003']);
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

  it('concurrent single inserts share INSERTs, yet each row answers for itself', async () => {
    const other = await seedOrganization(env);
    const foreign = row('RepoE004', false, { organizationId: other.organization.id, userId: other.owner.user.id, templateId: other.template.id });
    // The first two take both insert slots; the rest wait and leave as one batch.
    const results = await Promise.allSettled([
      repo.insertLink(row('RepoE001')),
      repo.insertLink(row('RepoE002')),
      repo.insertLink(row('RepoE003')),
      repo.insertLink(row('RepoE005', false, { templateId: '00000000-0000-4000-8000-000000000000' })),
      repo.insertLink(row('RepoE006', true)),
      repo.insertLink(row('RepoE006', true)),
      repo.insertLink(foreign),
      repo.insertLink(row('RepoA001')),
    ]);
    const value = (i: number) => (results[i] as PromiseFulfilledResult<{ shortCode: string; organizationId: string } | null>).value;
    expect([0, 1, 2].map((i) => value(i)?.shortCode)).toEqual(['RepoE001', 'RepoE002', 'RepoE003']);
    expect(results[3]).toMatchObject({ status: 'rejected', reason: expect.any(TemplateNotFoundError) });
    expect([value(4), value(5)].filter((l) => l?.shortCode === 'RepoE006')).toHaveLength(1);
    expect([value(4), value(5)].filter((l) => l === null)).toHaveLength(1);
    expect(value(6)).toMatchObject({ shortCode: 'RepoE004', organizationId: other.organization.id });
    expect(value(7)).toBeNull();
    expect(await repo.findByShortCodes(org.organization.id, ['RepoE004', 'RepoE005'])).toEqual([]);
    expect((await repo.findByShortCodes(other.organization.id, ['RepoE004'])).map((l) => l.shortCode)).toEqual(['RepoE004']);
  });

  it('reads are scoped by organization', async () => {
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
    expect(await repo.findById(other.organization.id, link!.id)).toBeNull();
    expect(await repo.findByIds(other.organization.id, [link!.id])).toEqual([]);
    expect(await repo.findByShortCodes(other.organization.id, ['RepoA001'])).toEqual([]);
    expect(await repo.findById(org.organization.id, 'not-a-uuid')).toBeNull();
    expect((await repo.findById(org.organization.id, link!.id))?.id).toBe(link!.id);
  });

  it('the declaration agrees with the table: each field has its column, of its kind\'s type, nullable exactly when it has no fallback', async () => {
    const columns = await env.prisma.$queryRaw<Array<{ column_name: string; data_type: string; is_nullable: string }>>`
      SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'links'`;
    const byName = new Map(columns.map((c) => [c.column_name, c]));
    const types: Record<LinkFieldKind, string> = {
      text: 'text', url: 'text', secret: 'text', int: 'integer', boolean: 'boolean', date: 'timestamp with time zone', tags: 'ARRAY', json: 'jsonb',
    };
    for (const key of LINK_FIELD_KEYS) {
      const field = linkField(key);
      const column = byName.get(field.column);
      // Prisma makes list columns nullable; the service never stores null in one (an unset list is '{}').
      const nullable = field.kind === 'tags' ? column?.is_nullable : field.fallback === undefined ? 'YES' : 'NO';
      expect({ key, type: column?.data_type, nullable: column?.is_nullable }).toEqual({ key, type: types[field.kind], nullable });
    }
  });

  it('every declared field is written, read and updated through its column', async () => {
    const samples = sampleLinkValues();
    const [inserted] = await repo.insertLinks([row('RepoF001', true, samples)]);
    expect(inserted).toMatchObject(samples);
    expect(await repo.findById(org.organization.id, inserted!.id)).toMatchObject(samples);
    // Every field back to its fallback in one update, then each one set again on its own.
    const cleared = { ...LINK_VALUE_FALLBACKS, originalUrl: 'https://example.com/cleared' };
    expect(await repo.updateLink(org.organization.id, inserted!.id, cleared)).toMatchObject(cleared);
    for (const key of LINK_FIELD_KEYS) await repo.updateLink(org.organization.id, inserted!.id, { [key]: samples[key] });
    expect(await repo.findById(org.organization.id, inserted!.id)).toMatchObject(samples);
  });

});
