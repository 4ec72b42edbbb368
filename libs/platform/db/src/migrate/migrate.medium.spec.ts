// Runs the real migrations against real Postgres (TEST_DATABASE_URL's server, or
// 127.0.0.1:5432 as user postgres), in databases created and dropped here.
import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAdminQuery, withDatabase } from './engine';
import { migrationsDir } from './history';
import { migrateDeploy } from './migrate';

jest.setTimeout(60_000);

const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const created: string[] = [];

/** URL of a database that does not exist yet; migrateDeploy creates it, afterAll drops it. */
function freshDatabaseUrl(): string {
  const name = `dl_migrate_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  created.push(name);
  return withDatabase(serverUrl, name);
}

const localMigrations = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

afterAll(async () => {
  for (const name of created) await runAdminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

describe('migrateDeploy', () => {
  it('applies every migration to a fresh database, then nothing the second time', async () => {
    const url = freshDatabaseUrl();

    expect(await migrateDeploy(url)).toEqual(localMigrations);
    expect(await migrateDeploy(url)).toEqual([]);

    const { rows } = await runAdminQuery(
      url,
      `SELECT migration_name, finished_at, rolled_back_at, applied_steps_count
       FROM _prisma_migrations ORDER BY migration_name`,
    );
    expect(rows.map((row: { migration_name: string }) => row.migration_name)).toEqual(localMigrations);
    for (const row of rows) {
      expect(row).toMatchObject({ rolled_back_at: null, applied_steps_count: 1 });
      expect(row.finished_at).toBeInstanceOf(Date);
    }
  });

  it('records the checksum as the sha256 hex of migration.sql, as the Prisma CLI does', async () => {
    const url = freshDatabaseUrl();
    await migrateDeploy(url);

    const { rows } = await runAdminQuery(url, 'SELECT migration_name, checksum FROM _prisma_migrations');
    expect(rows).toHaveLength(localMigrations.length);
    for (const { migration_name: name, checksum } of rows as Array<{ migration_name: string; checksum: string }>) {
      const file = readFileSync(join(migrationsDir, name, 'migration.sql'));
      expect(checksum).toBe(createHash('sha256').update(file).digest('hex'));
    }
  });

  it('reports progress only through opts.log', async () => {
    const url = freshDatabaseUrl();
    const lines: string[] = [];
    const consoleLog = jest.spyOn(console, 'log');
    const consoleError = jest.spyOn(console, 'error');

    await migrateDeploy(url, { log: (line) => lines.push(line) });

    expect(lines).toEqual([
      expect.stringMatching(/^Created database dl_migrate_test_/),
      ...localMigrations.map((name) => `Applied ${name}`),
      expect.stringMatching(/^Applied \d+ migrations? to dl_migrate_test_/),
    ]);
    expect(consoleLog).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    jest.restoreAllMocks();
  });
});
