/**
 * Partitioned `clicks`: (1) the insert cost of partition routing, the worker's statement shape
 * (`INSERT … SELECT … ON CONFLICT (id, clicked_at) DO NOTHING`, 10,000 rows of the current month
 * with UUIDv7 ids) into `clicks` and into a plain table with the same columns, key and indexes,
 * alternated in the same database; (2) retention of one month of --rows clicks: deleted in
 * 5,000-row chunks (the row path the shorter plans keep) versus the partition dropped.
 *
 *   node tools/scripts/run.js bench/clicks-partitions.ts [--rows 200000] [--rounds 5]
 *
 * Own database cloned from the migrated template (dropped at the end); bounded by --rows.
 */
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createTestEnv, ensureTemplateDatabase } from '@dl/testing';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const ORG = '00000000-0000-4000-8000-0000000000aa';
const LINK = '00000000-0000-4000-8000-0000000000bb';

/** n rows of the worker's columns at `at` + i ms, v7-shaped ids (time prefix, random rest). */
const rowsSql = (table: string, n: number, at: string) => `
  INSERT INTO ${table} (id, organization_id, link_id, clicked_at, ip_address, user_agent, referrer_host, device_type,
                        platform, browser, country_code, is_bot, visitor_hash, fingerprint)
  SELECT (lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3)
          || '8' || substr(md5(random()::text), 1, 15))::uuid,
         '${ORG}'::uuid, '${LINK}'::uuid, t, '198.51.100.' || (i % 250), 'Mozilla/5.0 bench ' || (i % 40), 'news.example.org',
         'mobile', 'iOS', 'Safari', 'GB', i % 50 = 0, md5((i % 5000)::text), md5((i % 7000)::text)
  FROM generate_series(1, ${n}) AS i, LATERAL (SELECT timestamptz '${at}' + i * interval '1 ms' AS t) x
  ON CONFLICT (id, clicked_at) DO NOTHING`;

async function timed(client: Client, sql: string): Promise<number> {
  const t = performance.now();
  await client.query(sql);
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const rows = arg('rows', 200_000);
  const rounds = arg('rounds', 5);
  await ensureTemplateDatabase();
  const env = await createTestEnv();
  const client = new Client({ connectionString: env.config.DATABASE_URL });
  await client.connect();
  const load = () => require('node:os').loadavg()[0].toFixed(1);
  try {
    await client.query(`INSERT INTO organizations (id, name, slug, tier) VALUES ('${ORG}', 'Bench', 'bench-partitions', 'FREE')`);
    // (1) Insert: partitioned clicks vs a plain table with the same key and indexes.
    await client.query(`CREATE TABLE clicks_plain (LIKE clicks INCLUDING DEFAULTS)`);
    await client.query(`ALTER TABLE clicks_plain ADD PRIMARY KEY (id, clicked_at)`);
    await client.query(`CREATE INDEX ON clicks_plain (link_id, clicked_at DESC)`);
    await client.query(`CREATE INDEX ON clicks_plain (organization_id, fingerprint, clicked_at DESC)`);
    const month = new Date();
    const at = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 2)).toISOString();
    const partitioned: number[] = [];
    const plain: number[] = [];
    for (let r = 0; r < rounds; r++) {
      partitioned.push(await timed(client, rowsSql('clicks', 10_000, at)));
      plain.push(await timed(client, rowsSql('clicks_plain', 10_000, at)));
    }
    const insert = {
      rowsPerStatement: 10_000,
      rounds,
      partitionedMsMedian: Math.round(median(partitioned)),
      plainMsMedian: Math.round(median(plain)),
      partitionedMs: partitioned.map(Math.round),
      plainMs: plain.map(Math.round),
    };
    process.stderr.write(`${JSON.stringify({ insert, load: load() })}\n`);

    // (2) Retention of one old month: row deletes in chunks versus DROP of the partition.
    const old = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() - 30, 1));
    const part = `clicks_p${old.toISOString().slice(0, 4)}${old.toISOString().slice(5, 7)}`;
    const end = new Date(Date.UTC(old.getUTCFullYear(), old.getUTCMonth() + 1, 1)).toISOString();
    const fill = async () => {
      for (let done = 0; done < rows; done += 50_000) await client.query(rowsSql('clicks', Math.min(50_000, rows - done), new Date(old.getTime() + done).toISOString()));
      await client.query(`VACUUM ANALYZE ${part}`);
    };
    await fill();
    let deleted = 0;
    const td = performance.now();
    for (;;) {
      const res = await client.query(`
        DELETE FROM clicks WHERE (id, clicked_at) IN (
          SELECT c.id, c.clicked_at FROM clicks c JOIN organizations o ON o.id = c.organization_id AND o.tier = 'FREE'
          WHERE c.clicked_at < '${end}' LIMIT 5000)`);
      deleted += res.rowCount ?? 0;
      if ((res.rowCount ?? 0) < 5000) break;
    }
    const deleteMs = performance.now() - td;
    const [{ size }] = (await client.query(`SELECT pg_size_pretty(pg_total_relation_size('${part}')) AS size`)).rows;
    await fill();
    const [{ full }] = (await client.query(`SELECT pg_size_pretty(pg_total_relation_size('${part}')) AS full`)).rows;
    const dropMs = await timed(client, `DROP TABLE ${part}`);
    const retention = {
      rows,
      deleteChunksMs: Math.round(deleteMs),
      deleted,
      partitionSizeAfterDeletes: size,
      partitionSizeFull: full,
      dropMs: Math.round(dropMs * 10) / 10,
    };
    process.stdout.write(`${JSON.stringify({ bench: 'clicks-partitions', insert, retention, loadAverage1m: load() })}\n`);
  } finally {
    await client.end();
    await env.teardown();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
