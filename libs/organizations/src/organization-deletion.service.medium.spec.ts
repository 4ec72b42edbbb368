import { randomUUID } from 'node:crypto';
import { PrismaService } from '@dl/platform/db';
import { RedisService } from '@dl/platform/redis';
import { ClickFixtures, createTestEnv, SeededOrganization, seedOrganization, TestEnv } from '@dl/testing';
import { OrganizationDeletionService } from './organization-deletion.service';
import { OrganizationPurgeRepository } from './organization-purge.repository';

describe(OrganizationDeletionService.name, () => {
  let env: TestEnv, redis: RedisService, repo: OrganizationPurgeRepository, service: OrganizationDeletionService;
  let doomed: SeededOrganization, kept: SeededOrganization;

  beforeAll(async () => {
    env = await createTestEnv();
    redis = new RedisService(env.config);
    repo = new OrganizationPurgeRepository(env.prisma);
    service = new OrganizationDeletionService(repo, redis);
    [doomed, kept] = [await seedOrganization(env), await seedOrganization(env)];
  });
  afterAll(async () => {
    await redis?.onModuleDestroy();
    await env?.teardown();
  });

  /** Rows of the organization in every table that has an organization_id, by table. */
  async function rowsOf(prisma: PrismaService, organizationId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of await repo.organizationTables()) {
      const [{ n }] = await prisma.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM "${table}" WHERE organization_id = $1::uuid`, organizationId);
      counts[table] = Number(n);
    }
    const [{ n }] = await prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM organizations WHERE id = ${organizationId}::uuid`;
    counts.organizations = Number(n);
    return counts;
  }

  /** Data of every kind the organization can own: links, clicks in two monthly partitions, rollups, a cached QR image, a webhook with a delivery, a project. */
  async function populate(o: SeededOrganization): Promise<void> {
    const fx = new ClickFixtures(env.prisma).useOwner(o.organization.id, o.owner.user.id, o.template.id);
    const project = await fx.project(o.organization.id);
    const link = await fx.link(o.organization.id, { projectId: project.id });
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    await fx.click({ id: link.id, organizationId: o.organization.id });
    await fx.click({ id: link.id, organizationId: o.organization.id }, { clickedAt: lastMonth });
    await env.prisma.$executeRaw`INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      VALUES (${o.organization.id}::uuid, ${link.id}::uuid, current_date, 'total', '', 2)`;
    await env.prisma.$executeRaw`INSERT INTO click_daily_visitors (organization_id, link_id, day, visitor_hash)
      VALUES (${o.organization.id}::uuid, ${link.id}::uuid, current_date, 'v')`;
    await env.prisma.qrImage.create({ data: { linkId: link.id, organizationId: o.organization.id, variant: 'png|300', contentType: 'image/png', body: Buffer.from('png') } });
    const hook = await fx.webhook(o.organization.id, ['link.clicked']);
    await env.prisma.webhookDelivery.create({
      data: { organizationId: o.organization.id, webhookId: hook.id, eventId: randomUUID(), eventType: 'link.clicked', payload: {} },
    });
    await redis.client.set(redis.key('rl', o.organization.id), '1');
    await redis.client.set(redis.key('auth', 'principal', `s:${o.organization.id}:${o.owner.user.id}`), '1');
  }

  it('removes every row of the organization, its clicks in every partition, QR images, Redis keys and sole members; another organization is untouched', async () => {
    await populate(doomed);
    await populate(kept);
    const keptBefore = await rowsOf(env.prisma, kept.organization.id);
    const doomedBefore = await rowsOf(env.prisma, doomed.organization.id);
    expect(doomedBefore).toMatchObject({ links: 1, clicks: 2, webhook_deliveries: 1, click_rollups: 1, qr_images: 1, webhooks: 1, projects: 1, memberships: 1, organizations: 1 });
    const now = new Date();
    await env.prisma.organization.update({ where: { id: doomed.organization.id }, data: { deletionScheduledAt: new Date(now.getTime() - 1000) } });

    expect(await service.deleteDue(now)).toBe(1);

    const after = await rowsOf(env.prisma, doomed.organization.id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(await env.prisma.user.findUnique({ where: { id: doomed.owner.user.id } })).toBeNull();
    expect(await redis.client.get(redis.key('rl', doomed.organization.id))).toBeNull();
    expect(await redis.client.get(redis.key('auth', 'principal', `s:${doomed.organization.id}:${doomed.owner.user.id}`))).toBeNull();

    expect(await rowsOf(env.prisma, kept.organization.id)).toEqual(keptBefore);
    expect(await redis.client.get(redis.key('rl', kept.organization.id))).toBe('1');
    expect(await env.prisma.user.findUnique({ where: { id: kept.owner.user.id } })).not.toBeNull();
  });

  it('leaves an organization not yet due, or restored, and keeps members who belong elsewhere too', async () => {
    const later = await seedOrganization(env);
    await env.prisma.organization.update({ where: { id: later.organization.id }, data: { deletionScheduledAt: new Date(Date.now() + 60_000) } });
    expect(await service.deleteDue(new Date())).toBe(0);
    expect(await service.deleteOrganization(kept.organization.id, new Date())).toBe(false);

    const shared = await seedOrganization(env);
    await env.prisma.membership.create({ data: { organizationId: kept.organization.id, userId: shared.owner.user.id, role: 'MEMBER' } });
    await env.prisma.organization.update({ where: { id: shared.organization.id }, data: { deletionScheduledAt: new Date(Date.now() - 1) } });
    expect(await service.deleteDue(new Date())).toBe(1);
    expect(await env.prisma.organization.findUnique({ where: { id: shared.organization.id } })).toBeNull();
    expect(await env.prisma.user.findUnique({ where: { id: shared.owner.user.id } })).not.toBeNull();
    expect(await env.prisma.organization.findUnique({ where: { id: later.organization.id } })).not.toBeNull();
  });
});
