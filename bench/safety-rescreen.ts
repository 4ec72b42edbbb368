/**
 * Re-screening stored links after a feed change: links/s, per CPU second (docs/performance.md).
 *   node tools/scripts/run.js bench/safety-rescreen.ts [--links 100000] [--entries 100000] [--matched 1000] [--rounds 3]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RescreenModule, RescreenService, SafetyService } from '@dl/safety';
import { createServiceContext, createTestEnv, seedOrganization } from '@dl/testing';
import { arg, log, median, print, rateRounds, round, runBench } from './kit';

runBench(async () => {
  const links = arg('links', 100_000);
  const entries = arg('entries', 100_000);
  const matched = arg('matched', 1000);
  const dir = mkdtempSync(join(tmpdir(), 'rescreen-bench-'));
  const feed = join(dir, 'feed.txt');
  // Domain entries; the first `matched` name hosts of bench links, the rest name nothing stored.
  writeFileSync(feed, Array.from({ length: entries }, (_, i) => (i < matched ? `site${i * Math.floor(links / matched)}.example` : `elsewhere${i}.test`)).join('\n') + '\n');
  const env = await createTestEnv({ THREAT_FEEDS: feed, THREAT_FEEDS_POLL_MS: '30000', AUTO_SUSPEND_BLOCKED_LINKS: '1000000' });
  const app = await createServiceContext(env, [RescreenModule]);
  try {
    const org = await seedOrganization(env);
    await env.prisma.$executeRawUnsafe(
      `INSERT INTO links (organization_id, user_id, template_id, short_code, original_url, variants, redirect_rules)
       SELECT $1::uuid, $2::uuid, $3::uuid, 'b' || i, 'https://site' || i || '.example/landing/' || i || '?utm_source=bench',
              CASE WHEN i % 4 = 0 THEN jsonb_build_array(jsonb_build_object('url', 'https://a' || i || '.example/', 'weight', 50), jsonb_build_object('url', 'https://b' || i || '.example/', 'weight', 50)) END,
              CASE WHEN i % 10 = 0 THEN jsonb_build_array(jsonb_build_object('conditions', jsonb_build_object('countries', jsonb_build_array('GB')), 'url', 'https://gb' || i || '.example/')) END
         FROM generate_series(0, $4::int - 1) AS i`,
      org.organization.id,
      org.owner.user.id,
      org.template.id,
      links,
    );
    await env.prisma.$executeRawUnsafe('ANALYZE links');
    const safety = app.get(SafetyService);
    await safety.reloadFeeds();
    log('seeded', { links, feedEntries: safety.snapshot.matcher.size });
    const rescreen = app.get(RescreenService);
    let blocked = 0;
    const reset = () => env.prisma.$executeRawUnsafe(`UPDATE links SET safety_status = 'ok', safety_reason = NULL WHERE safety_status = 'blocked'`);
    const rounds = await rateRounds(arg('rounds', 3), async () => ({ blocked } = await rescreen.pass()).scanned, reset);
    const linksPerSecond = median(rounds.perSecond);
    print({ links, feedEntries: safety.snapshot.matcher.size, blocked, linksPerSecond, workerLinksPerCpuSecond: median(rounds.perCpuSecond), rounds: rounds.perSecond, secondsPerPass: round(links / linksPerSecond, 2) });
  } finally {
    await app.close();
    await env.teardown();
    rmSync(dir, { recursive: true, force: true });
  }
});
