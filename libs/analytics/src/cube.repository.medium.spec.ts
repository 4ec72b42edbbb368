import { PrismaReadService } from '@dl/platform/db';
import { ClickFixtures, createTestEnv, TestEnv } from '@dl/testing';
import { CubeRepository } from './cube.repository';

describe(CubeRepository.name, () => {
  let env: TestEnv;
  let repo: CubeRepository;
  let acme: string;
  let a: { id: string; organizationId: string };
  let b: { id: string; organizationId: string };

  const row = (link: { id: string; organizationId: string }, day: string, dimension: string, clicks: number) =>
    env.prisma.$executeRaw`
      INSERT INTO click_rollups (organization_id, link_id, day, dimension, value, clicks)
      VALUES (${link.organizationId}::uuid, ${link.id}::uuid, ${day}::date, ${dimension}, '', ${clicks})`;

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new CubeRepository(env.prisma, PrismaReadService.create(env.config, env.prisma));
    const fx = new ClickFixtures(env.prisma);
    acme = (await fx.organization()).id;
    const other = (await fx.organization()).id;
    a = { id: (await fx.link(acme)).id, organizationId: acme };
    b = { id: (await fx.link(acme)).id, organizationId: acme };
    const foreign = { id: (await fx.link(other)).id, organizationId: other };
    // January's month row holds more than its days inside the window: only the day rows count there.
    await row(a, '2030-01-01', 'month:total', 500);
    await row(a, '2030-01-20', 'total', 100); // before the window
    await row(a, '2030-01-26', 'total', 2);
    await row(a, '2030-02-01', 'month:total', 50);
    await row(a, '2030-02-10', 'total', 50); // inside a whole month: its month row counts instead
    await row(b, '2030-03-04', 'total', 4);
    await row(b, '2030-03-01', 'month:total', 4);
    await row(foreign, '2030-02-01', 'month:total', 7000);
  });
  afterAll(() => env?.teardown());

  it('sizes a window from the month rows inside it and the day rows around them, of the organization or one link', async () => {
    expect(await repo.rolledUpClicks(acme, '2030-01-25', '2030-03-05')).toBe(2 + 50 + 4);
    expect(await repo.rolledUpClicks(acme, '2030-01-25', '2030-03-05', a.id)).toBe(2 + 50);
    expect(await repo.rolledUpClicks(acme, '2030-02-01', '2030-02-28')).toBe(50);
    expect(await repo.rolledUpClicks(acme, '2030-01-25', '2030-03-05', '00000000-0000-4000-8000-000000000000')).toBe(0);
  });
});
