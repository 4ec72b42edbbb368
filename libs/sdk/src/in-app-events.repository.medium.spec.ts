import { randomUUID } from 'node:crypto';
import { sqlState } from '@dl/platform/db';
import { rejectionOf, repositoryEnv, SdkFixtures, TestEnv } from '@dl/testing';
import { InAppEventRow, InAppEventsRepository } from './in-app-events.repository';

describe(InAppEventsRepository.name, () => {
  let env: TestEnv, repo: InAppEventsRepository, acme: string, other: string;
  let app: string;

  beforeAll(async () => {
    ({ env, repo, acmeId: acme, otherId: other } = await repositoryEnv((prisma) => new InAppEventsRepository(prisma)));
    app = (await new SdkFixtures(env.prisma).app(acme)).id;
  });
  afterAll(() => env?.teardown());

  const row = (eventName: string, at: string, extra: Partial<InAppEventRow> = {}): InAppEventRow => ({
    id: randomUUID(),
    organizationId: acme,
    appId: app,
    installId: '11111111-1111-4111-8111-111111111111',
    linkId: null,
    clickId: null,
    eventName,
    eventData: { step: 1 },
    eventTimestamp: new Date(at),
    revenue: null,
    currency: null,
    attributed: true,
    receivedAt: new Date(at),
    ...extra,
  });
  const daily = (organizationId: string) =>
    env.prisma.inAppEventDaily.findMany({ where: { organizationId }, orderBy: [{ day: 'asc' }, { eventName: 'asc' }] });

  it('inserts a batch and rolls up the attributed events per UTC day and name; a replay counts nothing twice', async () => {
    const batch = [
      row('signup', '2030-05-01T10:00:00Z'),
      row('signup', '2030-05-01T23:30:00Z'),
      row('revenue', '2030-05-01T12:00:00Z', { revenue: 9.99, currency: 'EUR' }),
      row('revenue', '2030-05-02T00:10:00Z', { revenue: 5, currency: 'EUR' }),
      row('signup', '2030-05-01T11:00:00Z', { attributed: false }),
    ];
    expect(await repo.insertBatch(acme, batch)).toBe(5);
    expect(await repo.insertBatch(acme, batch)).toBe(0);
    expect((await daily(acme)).map((d) => [d.day.toISOString().slice(0, 10), d.eventName, d.events, Number(d.revenue), d.lastOccurred.toISOString()])).toEqual([
      ['2030-05-01', 'revenue', 1, 9.99, '2030-05-01T12:00:00.000Z'],
      ['2030-05-01', 'signup', 2, 0, '2030-05-01T23:30:00.000Z'],
      ['2030-05-02', 'revenue', 1, 5, '2030-05-02T00:10:00.000Z'],
    ]);
    const stored = await env.prisma.inAppEvent.findUniqueOrThrow({ where: { id: batch[2].id } });
    expect(stored).toMatchObject({ organizationId: acme, eventName: 'revenue', eventData: { step: 1 }, currency: 'EUR', attributed: true });
    expect(Number(stored.revenue)).toBe(9.99);
    expect(await repo.insertBatch(acme, [])).toBe(0);
  });

  it('events are stored in the organization the call names: another organization counts none of them', async () => {
    const mine = row('open', '2030-06-01T08:00:00Z');
    expect(await repo.insertBatch(acme, [mine])).toBe(1);
    // The same event id replayed under another organization inserts nothing and counts nothing there.
    expect(await repo.insertBatch(other, [{ ...mine, organizationId: other }])).toBe(0);
    expect(await daily(other)).toEqual([]);
    expect((await env.prisma.inAppEvent.findUniqueOrThrow({ where: { id: mine.id } })).organizationId).toBe(acme);
  });

  it('a revenue with more than 14 integer digits is refused by its numeric(18,4) column (22003), inserting nothing', async () => {
    const batch = [row('revenue', '2030-07-01T00:00:00Z', { revenue: 1e15, currency: 'USD' }), row('ok', '2030-07-01T00:00:00Z')];
    expect(sqlState(await rejectionOf(repo.insertBatch(acme, batch)))).toBe('22003');
    expect(await env.prisma.inAppEvent.count({ where: { id: { in: batch.map((b) => b.id) } } })).toBe(0);
  });
});
