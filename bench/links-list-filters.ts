/**
 * `GET /api/links` filters on a large organization: the index each uses, database time, HTTP latency (docs/performance.md).
 *   node tools/scripts/run.js bench/links-list-filters.ts [--links 100000] [--requests 20] [--plans]
 */
import { Pool } from 'pg';
import { Tier } from '@dl/platform/db';
import { LinkListFilter, LinksPg } from '@dl/links';
import { seedOrganization } from '@dl/testing';
import { arg, flag, log, print, round, runBench, startApiBench, timings } from './kit';

runBench(async () => {
  const links = arg('links', 100_000);
  const requests = Math.min(arg('requests', 20), 100);
  const bench = await startApiBench();
  const pool = new Pool({ connectionString: bench.env.config.DATABASE_URL, max: 1 });
  const pg = new LinksPg(bench.env.config);
  try {
    const org = bench.org;
    const other = await seedOrganization(bench.env, { tier: Tier.UNLIMITED, name: 'Other' });
    const project = await bench.env.prisma.project.create({ data: { organizationId: org.organization.id, userId: org.owner.user.id, name: 'Spring' } });
    const seed = async (o: typeof org, n: number, prefix: string) => bench.env.prisma.$executeRawUnsafe(
      `INSERT INTO links (organization_id, user_id, template_id, project_id, domain_name, short_code, original_url, title,
                          tags, is_active, click_count, created_at)
       SELECT $1::uuid, $2::uuid, $3::uuid,
         CASE WHEN g % 50 = 0 THEN $4::uuid END,
         CASE WHEN g % 20 = 0 THEN 'go.bench.test' ELSE '' END,
         '${prefix}' || lpad(g::text, 7, '0'),
         'https://shop' || (g % 997) || '.example/landing/' || md5(g::text),
         CASE WHEN g % 3 = 0 THEN NULL ELSE 'Campaign ' || (g % 5000) || ' ' || substr(md5((g * 7)::text), 1, 8) END,
         CASE WHEN g % 10 = 0 THEN ARRAY['Launch', 'q' || (g % 4 + 1)]
              WHEN g % 10 = 1 THEN ARRAY['tag' || (g % 300)] ELSE '{}'::text[] END,
         g % 25 <> 0, g % 1000, now() - g * interval '1 minute'
       FROM generate_series(1, $5::int) g`,
      o.organization.id, o.owner.user.id, o.template.id, project.id, n,
    );
    await seed(org, links, 'bf');
    await seed(other, Math.round(links / 4), 'bo');
    await bench.env.prisma.$executeRaw`ANALYZE links`;
    log('seeded', { links, other: Math.round(links / 4) });

    // A cursor deep in the list: after item 50,000 (or the middle).
    const deep = await pool.query<{ at: string; id: string }>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, id::text FROM links
       WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [org.organization.id, Math.floor(links / 2)],
    );
    const cursor = { createdAt: deep.rows[0].at, id: deep.rows[0].id };
    const cases: Array<{ name: string; query: string; filter: LinkListFilter }> = [
      { name: 'search "campaign 4242" (title), limit 50', query: 'search=campaign%204242&limit=50', filter: { search: 'campaign 4242', limit: 50 } },
      { name: 'search "shop13.example" (destination), limit 50', query: 'search=shop13.example&limit=50', filter: { search: 'shop13.example', limit: 50 } },
      { name: 'search "bf0077" (short code), no limit', query: 'search=bf0077', filter: { search: 'bf0077' } },
      { name: 'search "zzzzzz" (no match), no limit', query: 'search=zzzzzz', filter: { search: 'zzzzzz' } },
      { name: 'tag "TAG41" (0.03 %), no limit', query: 'tag=TAG41', filter: { tags: ['TAG41'] } },
      { name: 'tag "launch" (10 %), limit 50', query: 'tag=launch&limit=50', filter: { tags: ['launch'], limit: 50 } },
      { name: 'projectId (2 %), limit 50', query: `projectId=${project.id}&limit=50`, filter: { projectId: project.id, limit: 50 } },
      { name: 'domain go.bench.test (5 %), limit 50', query: 'domain=go.bench.test&limit=50', filter: { domainName: 'go.bench.test', limit: 50 } },
      { name: 'isActive=false (4 %), limit 50', query: 'isActive=false&limit=50', filter: { isActive: false, limit: 50 } },
      { name: 'no filter, limit 50, first page', query: 'limit=50', filter: { limit: 50 } },
      { name: `no filter, limit 50, page after item ${Math.floor(links / 2)}`, query: '', filter: { limit: 50, cursor } },
      { name: 'tag "launch" + search "campaign 1" + isActive, limit 100', query: 'tag=launch&search=campaign%201&isActive=true&limit=100', filter: { tags: ['launch'], search: 'campaign 1', isActive: true, limit: 100 } },
    ];
    const rows: Array<Record<string, unknown>> = [];
    for (const c of cases) {
      const { text, values } = pg.listStatement(org.organization.id, c.filter);
      const plan = (await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, values)).rows.map((r) => r['QUERY PLAN']);
      const indexes = [...new Set(plan.join('\n').match(/(?:Index|Bitmap Index) (?:Only )?Scan(?: Backward)? (?:using|on) (\w+)/g) ?? [])];
      const seqScan = plan.some((l) => /Seq Scan on links/.test(l));
      const execMs = Number(/Execution Time: ([\d.]+)/.exec(plan.join('\n'))?.[1]);
      const times: number[] = [];
      for (let i = 0; c.query && i < requests; i++) {
        const t0 = performance.now();
        const res = await fetch(`${bench.url}/api/links?${c.query}`, { headers: bench.auth });
        await res.text();
        if (res.status !== 200) throw new Error(`${c.query}: ${res.status}`);
        times.push(performance.now() - t0);
      }
      const http = times.length ? { p50: timings(times).p50, max: timings(times).max } : undefined;
      rows.push({ filter: c.name, indexes: indexes.map((s) => s.replace(/^.* (using|on) /, '')), seqScan, sqlMs: execMs, httpMs: http });
      if (flag('plans')) process.stderr.write(`\n-- ${c.name}\n${plan.join('\n')}\n`);
    }
    const tagsPlan = (await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, COSTS OFF) SELECT lower(tag), count(*) FROM links l, unnest(l.tags) tag WHERE l.organization_id = $1 AND cardinality(l.tags) > 0 GROUP BY 1`,
      [org.organization.id],
    )).rows.map((r) => r['QUERY PLAN']);
    const t0 = performance.now();
    for (let i = 0; i < requests; i++) await (await fetch(`${bench.url}/api/tags`, { headers: bench.auth })).text();
    rows.push({ filter: 'GET /api/tags', sqlMs: Number(/Execution Time: ([\d.]+)/.exec(tagsPlan.join('\n'))?.[1]), httpMs: { mean: round((performance.now() - t0) / requests) } });
    print({ bench: 'links-list-filters', links, otherOrganization: Math.round(links / 4), rows });
  } finally {
    await pg.onModuleDestroy();
    await pool.end();
    await bench.close();
  }
});
