import { PrismaReadService, sqlState } from '@dl/platform/db';
import { createTestEnv, rejectionOf, ReportFixtures, TestEnv } from '@dl/testing';
import { EventAnalyticsRepository } from './event-analytics.repository';

describe(EventAnalyticsRepository.name, () => {
  let env: TestEnv;
  let repo: EventAnalyticsRepository;
  let fx: ReportFixtures;
  let acme: string;
  let other: string;
  let install: string;
  let link: { id: string; shortCode: string };

  const rollup = (organizationId: string, day: string, eventName: string, events: number, revenue = 0) =>
    env.prisma.inAppEventDaily.create({ data: { organizationId, day: new Date(day), eventName, events, revenue, lastOccurred: new Date(`${day}T12:00:00Z`) } });

  beforeAll(async () => {
    env = await createTestEnv();
    repo = new EventAnalyticsRepository(PrismaReadService.create(env.config, env.prisma));
    fx = new ReportFixtures(env.prisma);
    acme = (await fx.organization({ createdAt: new Date('2030-01-01') })).id;
    other = (await fx.organization({ createdAt: new Date('2030-01-01') })).id;
    link = await fx.link(acme, { title: 'Spring', createdAt: new Date('2030-01-01') });
    const app = await fx.app(acme);
    install = await fx.install(acme, app, { platform: 'ios', createdAt: new Date('2030-05-01') });
    await rollup(acme, '2030-05-01', 'signup', 3);
    await rollup(acme, '2030-05-03', 'signup', 2);
    await rollup(acme, '2030-05-03', 'revenue', 1, 12.5);
    await rollup(acme, '2030-04-20', 'signup', 40); // before the window
    await rollup(acme, '2030-05-02', 'sign_up', 1); // '_' is not a LIKE wildcard in a search
    await rollup(other, '2030-05-02', 'signup', 100);
    for (const [name, at, attributed] of [
      ['signup', '2030-05-01T09:00:00Z', true],
      ['signup', '2030-05-03T09:00:00Z', true],
      ['revenue', '2030-05-03T10:00:00Z', true],
      ['signup', '2030-05-03T11:00:00Z', false],
    ] as const) {
      await fx.event(acme, app, { installId: install, name, at: new Date(at), attributed, linkId: link.id });
    }
  });
  afterAll(() => env?.teardown());

  const window = { sinceDay: '2030-05-01' };

  it('sums the rollup over the window: totals, top events, a zero-filled timeline, counts and all-time names', async () => {
    expect(await repo.totals(acme, window, '2030-05-03')).toEqual({ total: 7, names: 3, today: 3, revenue: 12.5 });
    expect(await repo.topEvents(acme, window, 2)).toEqual([
      { eventName: 'signup', count: 5, lastOccurred: new Date('2030-05-03T12:00:00Z') },
      { eventName: 'revenue', count: 1, lastOccurred: new Date('2030-05-03T12:00:00Z') },
    ]);
    expect(await repo.timeline(acme, { ...window, eventName: 'signup' }, '2030-05-04')).toEqual([
      { date: '2030-05-01', count: 3 },
      { date: '2030-05-02', count: 0 },
      { date: '2030-05-03', count: 2 },
      { date: '2030-05-04', count: 0 },
    ]);
    expect(await repo.count(acme, { ...window, search: 'SIGN' })).toBe(6);
    expect(await repo.count(acme, { ...window, search: 'n_u' })).toBe(1);
    expect(await repo.names(acme)).toEqual([{ name: 'signup', count: 45 }, { name: 'revenue', count: 1 }, { name: 'sign_up', count: 1 }]);
  });

  it('pages the attributed events newest first and continues after a keyset position', async () => {
    const page = await repo.page(acme, window, 0, 2);
    expect(page.map((e) => [e.eventName, e.eventTimestamp.toISOString(), e.shortCode, e.title, e.installId])).toEqual([
      ['revenue', '2030-05-03T10:00:00.000Z', link.shortCode, 'Spring', install],
      ['signup', '2030-05-03T09:00:00.000Z', link.shortCode, 'Spring', install],
    ]);
    const rest = await repo.after(acme, window, { at: page[1].eventTimestamp, id: page[1].id }, 10);
    expect(rest.map((e) => e.eventTimestamp.toISOString())).toEqual(['2030-05-01T09:00:00.000Z']);
  });

  it("another organization's events answer as missing", async () => {
    expect(await repo.totals(other, window, '2030-05-03')).toEqual({ total: 100, names: 1, today: 0, revenue: 0 });
    expect(await repo.page(other, window, 0, 10)).toEqual([]);
    expect(await repo.names('00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('a window day that is not a date is refused by the database (22008: out of range)', async () => {
    expect(sqlState(await rejectionOf(repo.count(acme, { sinceDay: '2030-13-45' })))).toBe('22008');
  });
});
