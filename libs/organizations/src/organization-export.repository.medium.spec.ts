import { randomBytes } from 'node:crypto';
import { createTestEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { EXPORT_TABLES } from './organization-export.service';
import { OrganizationExportRepository } from './organization-export.repository';

describe(OrganizationExportRepository.name, () => {
  let env: TestEnv, repo: OrganizationExportRepository, acme: SeededOrganization, other: SeededOrganization;
  beforeAll(async () => {
    env = await createTestEnv();
    repo = new OrganizationExportRepository(env.config);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(async () => {
    await repo?.onModuleDestroy();
    await env?.teardown();
  });

  const createLinks = (o: SeededOrganization, n: number) =>
    env.prisma.link.createManyAndReturn({
      data: Array.from({ length: n }, () => ({
        organizationId: o.organization.id,
        userId: o.owner.user.id,
        templateId: o.template.id,
        shortCode: `x${randomBytes(5).toString('hex')}`,
        originalUrl: 'https://example.com/',
        passwordHash: 'scrypt$secret',
      })),
      select: { id: true },
    });

  it('reads every page from the snapshot of its first read: links created meanwhile are not in it', async () => {
    const before = await createLinks(acme, 7);
    await createLinks(other, 3);
    const snapshot = await repo.open(acme.organization.id, 2);
    const seen: string[] = [];
    try {
      let page = 0;
      for await (const rows of snapshot.rows(EXPORT_TABLES.links)) {
        seen.push(...rows.map((r) => r.id as string));
        for (const r of rows) expect(r).not.toHaveProperty('password_hash');
        // Committed between two pages (keyset by random UUIDs: without the snapshot some would be read).
        if (page++ === 0) await createLinks(acme, 20);
      }
    } finally {
      await snapshot.close();
    }
    expect(seen.sort()).toEqual(before.map((l) => l.id).sort());
    expect(await env.prisma.link.count({ where: { organizationId: acme.organization.id } })).toBe(27);
  });

  it('answers the columns without the omitted ones, and only members of the organization', async () => {
    const snapshot = await repo.open(acme.organization.id);
    try {
      const columns = await snapshot.columns(EXPORT_TABLES.webhooks);
      expect(columns).toEqual(expect.arrayContaining(['id', 'url', 'events']));
      expect(columns).not.toContain('secret');
      expect(await snapshot.members()).toEqual([
        { user_id: acme.owner.user.id, email: acme.owner.user.email, name: acme.owner.user.name, role: 'OWNER', joined_at: expect.any(Date) },
      ]);
    } finally {
      await snapshot.close();
    }
  });
});
