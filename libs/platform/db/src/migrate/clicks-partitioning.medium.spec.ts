// The clicks partitioning migration on a database holding clicks in the plain table: every
// migration before it is applied, rows are seeded across four years (and one far outside),
// then the migration runs; not a click may be lost or duplicated.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAdminQuery, withDatabase } from './engine';
import { migrationsDir } from './history';

jest.setTimeout(120_000);

const MIGRATION = '20261125070000_clicks_partitioned';
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `dl_partition_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const url = withDatabase(serverUrl, name);
const sql = (dir: string) => readFileSync(join(migrationsDir, dir, 'migration.sql'), 'utf8');
const q = async <T>(text: string): Promise<T[]> => (await runAdminQuery(url, text)).rows as T[];

/** Count, distinct keys and a digest of every row's content. */
const fingerprint = () =>
  q<{ n: string; ids: string; digest: string }>(`
    SELECT count(*)::text AS n, count(DISTINCT id)::text AS ids,
           md5(string_agg(c::text, '|' ORDER BY id)) AS digest
    FROM clicks c`).then((r) => r[0]);

beforeAll(async () => {
  await runAdminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  const before = readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name < MIGRATION)
    .map((e) => e.name)
    .sort();
  for (const dir of before) await runAdminQuery(url, sql(dir));
});

afterAll(async () => {
  await runAdminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe(MIGRATION, () => {
  it('converts the plain table: same rows, same content, keyed (id, clicked_at), one partition per month', async () => {
    // 20,000 clicks spread hourly-ish over 40 months back to 2 months ahead, plus 10 from 1990.
    await runAdminQuery(
      url,
      `INSERT INTO clicks (id, organization_id, link_id, clicked_at, ip_address, user_agent, is_bot, visitor_hash, variant_index)
       SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001'::uuid, '00000000-0000-4000-8000-000000000002'::uuid,
              now() - interval '40 months' + (i * interval '1 month' * 42 / 20000), '198.51.100.' || (i % 250),
              'ua ' || i, i % 7 = 0, md5(i::text), CASE WHEN i % 3 = 0 THEN (i % 2)::smallint END
       FROM generate_series(1, 20000) AS i
       UNION ALL
       SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001'::uuid, '00000000-0000-4000-8000-000000000002'::uuid,
              timestamptz '1990-01-01' + i * interval '1 day', NULL, NULL, false, 'old', NULL
       FROM generate_series(1, 10) AS i`,
    );
    const before = await fingerprint();
    expect(before).toMatchObject({ n: '20010', ids: '20010' });

    await runAdminQuery(url, sql(MIGRATION));

    expect(await fingerprint()).toEqual(before);
    const [kind] = await q<{ relkind: string }>(`SELECT relkind FROM pg_class WHERE relname = 'clicks'`);
    expect(kind.relkind).toBe('p');
    expect(await q(`SELECT to_regclass('clicks_unpartitioned') AS t`)).toEqual([{ t: null }]);
    const [pk] = await q<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'clicks_pkey'`);
    expect(pk.def).toBe('PRIMARY KEY (id, clicked_at)');

    // Monthly partitions from 36 months back to 3 ahead, and the default one.
    const parts = await q<{ name: string; rows: string }>(`
      SELECT c.relname AS name, (SELECT count(*) FROM clicks x WHERE x.tableoid = c.oid)::text AS rows
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'clicks'::regclass ORDER BY c.relname`);
    const months = parts.filter((p) => p.name !== 'clicks_default').map((p) => p.name);
    expect(months).toHaveLength(40);
    const now = new Date();
    const month = (offset: number) => {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      return `clicks_p${d.toISOString().slice(0, 4)}${d.toISOString().slice(5, 7)}`;
    };
    expect(months[0]).toBe(month(-36));
    expect(months[39]).toBe(month(3));
    // Every row is in the partition of its month; only rows outside every month are in the default.
    const misplaced = await q(`
      SELECT c.id FROM clicks c
      WHERE c.tableoid <> (SELECT coalesce(to_regclass('clicks_p' || to_char(c.clicked_at AT TIME ZONE 'UTC', 'YYYYMM')), 'clicks_default'::regclass))`);
    expect(misplaced).toEqual([]);
    const inDefault = await q<{ n: string }>(`SELECT count(*)::text AS n FROM clicks_default`);
    const outside = await q<{ n: string }>(
      `SELECT count(*)::text AS n FROM clicks WHERE clicked_at < (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '36 months') AT TIME ZONE 'UTC'`,
    );
    expect(inDefault[0].n).toBe(outside[0].n);
    expect(Number(inDefault[0].n)).toBeGreaterThanOrEqual(10);

    // The key is (id, clicked_at): a replay of a stored click inserts nothing.
    const replay = await q<{ id: string }>(`
      INSERT INTO clicks SELECT * FROM clicks ORDER BY id LIMIT 100
      ON CONFLICT (id, clicked_at) DO NOTHING RETURNING id`);
    expect(replay).toEqual([]);
    expect(await fingerprint()).toEqual(before);
  });
});
