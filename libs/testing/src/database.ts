import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrateDeploy } from '@dl/platform/db';

/** Where test databases live; override with TEST_DATABASE_URL (any database on the server). */
export function adminUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

const root = join(__dirname, '..', '..', '..');

/** Name of the migrated template database: one per set of migrations. */
export function templateName(): string {
  const dir = join(root, 'prisma', 'migrations');
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir).sort()) {
    if (entry.endsWith('.toml')) continue;
    hash.update(entry);
    hash.update(readFileSync(join(dir, entry, 'migration.sql')));
  }
  return `dl_test_tpl_${hash.digest('hex').slice(0, 12)}`;
}

async function withAdmin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates (once per set of migrations, under an advisory lock) a migrated template
 * database that every test file clones. Called from jest's globalSetup.
 */
export async function ensureTemplateDatabase(): Promise<string> {
  const name = templateName();
  await withAdmin(async (admin) => {
    await admin.query('SELECT pg_advisory_lock(727272)');
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return;
      const building = `${name}_build`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await migrateDeploy(databaseUrl(building));
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      // Templates of other migration sets are kept: other branches run tests on this server at the same time.
    } finally {
      await admin.query('SELECT pg_advisory_unlock(727272)');
    }
    await dropAbandonedTestDatabases(admin);
  });
  return name;
}

const ABANDONED_AFTER_MS = 6 * 3600 * 1000;

/** Drops test databases left by killed runs (their name carries their creation time). */
async function dropAbandonedTestDatabases(admin: Client): Promise<void> {
  const rows = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname ~ '^dl_test_[0-9a-z]+_[0-9a-f]{8}$'`,
  );
  for (const { datname } of rows.rows) {
    const created = parseInt(datname.split('_')[2], 36);
    if (Number.isFinite(created) && Date.now() - created > ABANDONED_AFTER_MS) {
      await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  }
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A fresh migrated database for one test file (a copy of the template: ~100 ms). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = templateName();
  const name = `dl_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin(async (admin) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (err) {
        // "source database is being accessed by other users": another file is cloning right now.
        if (attempt < 20 && /being accessed by other users/.test(String(err))) {
          await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
          continue;
        }
        // Dropped by a run of another branch (older harness): make it again.
        if (attempt < 3 && /does not exist/.test(String(err))) {
          await ensureTemplateDatabase();
          continue;
        }
        throw err;
      }
    }
  });
  return {
    name,
    url: databaseUrl(name),
    drop: () => withAdmin(async (admin) => void (await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`))),
  };
}
