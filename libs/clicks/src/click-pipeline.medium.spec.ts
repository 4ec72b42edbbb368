import { packClickBatch } from '@dl/platform/click-codec';
import { Tier } from '@dl/platform/db';
import { MetricsService } from '@dl/platform/observability';
import { ClickFixtures, createServiceContext, rawClick, rolledUpClicks, storedClicks, useServices } from '@dl/testing';
import { MalformedClickError } from './click-admission';
import { ClickPipeline, ClickPipelineClosedError } from './click-pipeline';
import { EnrichedClick } from './enrich';
import { ClicksModule } from './clicks.module';

describe(ClickPipeline.name, () => {
  const t = useServices([ClicksModule], {}, async (app, env) => ({ pipeline: app.get(ClickPipeline), fx: new ClickFixtures(env.prisma) }));

  const newLink = async () => {
    const org = await t.fx.organization(Tier.PRO);
    return { id: (await t.fx.link(org.id)).id, organizationId: org.id };
  };
  const stored = (linkId: string) => storedClicks(t.env.prisma, linkId);
  const rolledUp = (linkId: string) => rolledUpClicks(t.env.prisma, linkId);
  const cube = async (linkId: string) =>
    (
      await t.env.prisma.$queryRaw<Array<{ clicks: number; visitors: number; rows: number }>>`
        SELECT coalesce(sum(clicks), 0)::int AS clicks, coalesce(sum(visitors), 0)::int AS visitors, count(*)::int AS rows
        FROM click_cube WHERE link_id = ${linkId}::uuid AND NOT is_bot`
    )[0];
  const counter = async (linkId: string) => (await t.env.prisma.link.findUniqueOrThrow({ where: { id: linkId } })).clickCount;

  it('stores a job once committed: enriched, rolled up and counted; a malformed click of a batch is dropped and counted, its neighbours kept', async () => {
    const link = await newLink();
    const good = [rawClick(link), rawClick(link, { ip: '198.51.100.7' })];
    const bad = { ...rawClick(link), linkId: 'not-a-uuid' };
    const before = { ...t.pipeline.totals };
    await t.pipeline.ingest('click.batch', JSON.parse(JSON.stringify(packClickBatch([good[0], bad, good[1]]))), 'job-1');
    expect(await stored(link.id)).toBe(2);
    expect(await rolledUp(link.id)).toBe(2);
    expect(await counter(link.id)).toBe(2);
    expect(t.pipeline.totals.inserted - before.inserted).toBe(2);
    const [row] = await t.env.prisma.$queryRaw<Array<{ country_code: string | null; device_type: string | null }>>`
      SELECT country_code, device_type FROM clicks WHERE id = ${good[0].id}::uuid`;
    expect(row).toEqual({ country_code: 'GB', device_type: 'mobile' });
    const metrics = await t.app.get(MetricsService).registry.getSingleMetricAsString('clicks_malformed_total');
    expect(metrics).toContain('clicks_malformed_total{job="click.batch"} 1');
  });

  it('refuses a payload malformed as a whole with MalformedClickError, and counts it', async () => {
    await expect(t.pipeline.ingest('click.batch', { clicks: 'x' })).rejects.toThrow(new MalformedClickError('Malformed click batch: clicks is not an array'));
    await expect(t.pipeline.ingest('click.captured', { id: 'x' })).rejects.toBeInstanceOf(MalformedClickError);
    const metrics = await t.app.get(MetricsService).registry.getSingleMetricAsString('clicks_malformed_total');
    expect(metrics).toContain('clicks_malformed_total{job="click.captured"} 1');
  });

  it("batches concurrent calls into one transaction; a replay stores nothing twice; another organization's link is dropped", async () => {
    const link = await newLink();
    const other = await newLink();
    const seen: string[] = [];
    const commits: Array<{ stored: string[]; inserted: number; dropped: number }> = [];
    const remove = t.pipeline.use({
      enriched: (clicks) => seen.push(`enriched ${clicks.length}`),
      beforeCommit: (inserted) => void seen.push(`beforeCommit ${inserted.length}`),
      committed: (inserted, result) => {
        seen.push(`committed ${inserted.length}`);
        commits.push({ stored: inserted.map((c) => c.id).sort(), inserted: result.inserted, dropped: result.dropped });
      },
    });
    try {
      const a = [rawClick(link), rawClick(link), rawClick(link)];
      // Claims the other organization for this link: a forged organization id stores nothing.
      const forged = rawClick({ id: link.id, organizationId: other.organizationId });
      await Promise.all([t.pipeline.store(a), t.pipeline.store([forged, ...a.slice(0, 1)])]);
      expect(seen).toEqual(['enriched 3', 'enriched 2', 'beforeCommit 3', 'committed 3']);
      expect(commits).toEqual([{ stored: a.map((c) => c.id).sort(), inserted: 3, dropped: 1 }]);
      await t.pipeline.store(a);
      expect(commits[1]).toEqual({ stored: [], inserted: 0, dropped: 0 });
      expect(await stored(link.id)).toBe(3);
      expect(await counter(link.id)).toBe(3);
      expect(await stored(other.id)).toBe(0);
      // Three clicks of one visitor: a cube row each, one daily visitor; the replay adds nothing.
      expect(await cube(link.id)).toEqual({ clicks: 3, visitors: 1, rows: 3 });
      // The writer's stratum is the migration's (the backfill's) for the same visitor.
      const [strata] = await t.env.prisma.$queryRaw<Array<{ same: boolean }>>`
        SELECT bool_and(k.sample = dl_cube_sample(c.visitor_hash)) AS same
        FROM click_cube k JOIN clicks c ON c.link_id = k.link_id WHERE k.link_id = ${link.id}::uuid`;
      expect(strata.same).toBe(true);
    } finally {
      remove();
    }
  });

  it('a failure before commit rolls the batch back and fails its callers; the same clicks are stored once afterwards', async () => {
    const link = await newLink();
    const clicks = [rawClick(link), rawClick(link)];
    const remove = t.pipeline.use({
      beforeCommit: () => {
        throw new Error('crash before commit');
      },
    });
    await expect(t.pipeline.store(clicks)).rejects.toThrow('crash before commit');
    remove();
    expect(await stored(link.id)).toBe(0);
    await t.pipeline.store(clicks);
    expect(await stored(link.id)).toBe(2);
    expect(await rolledUp(link.id)).toBe(2);
  });

  it('dead-letters a click the database refuses and stores the rest of its batch', async () => {
    const link = await newLink();
    const good = [rawClick(link), rawClick(link)];
    const poison = rawClick(link, { userAgent: 'evil\u0000agent' });
    const before = t.pipeline.totals.deadLettered;
    const stored: EnrichedClick[] = [];
    const remove = t.pipeline.use({ committed: (inserted) => void stored.push(...inserted) });
    await t.pipeline.store([good[0], poison, good[1]]).finally(remove);
    expect(stored.map((c) => c.id).sort()).toEqual(good.map((c) => c.id).sort());
    expect(t.pipeline.totals.deadLettered - before).toBe(1);
    const letters = await t.env.prisma.deadLetter.findMany({ where: { queue: 'clicks' } });
    expect(letters.map((l) => (l.payload as { id: string }).id)).toEqual([poison.id]);
  });

  it('after close, refuses new clicks with ClickPipelineClosedError', async () => {
    const link = await newLink();
    const own = await createServiceContext(t.env, [ClicksModule]);
    const closing = own.get(ClickPipeline);
    await closing.close();
    await expect(closing.store([rawClick(link)])).rejects.toBeInstanceOf(ClickPipelineClosedError);
    await own.close();
    expect(await stored(link.id)).toBe(0);
  });
});
