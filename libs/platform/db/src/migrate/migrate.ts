// Prisma Migrate without the Prisma binary: `deploy`, `dev` and `status` driving Prisma's
// schema engine compiled to WebAssembly (engine.ts), on the same prisma/migrations history and
// _prisma_migrations rows as the Prisma CLI. The test kit migrates its template database with
// `migrateDeploy`; `npm run db:migrate|db:migration|db:status` is its command line (tools/db).
import type { DiffTarget, SchemaContainer } from '@prisma/schema-engine-wasm/schema_engine_bg';
import { openEngine, runAdminQuery, withDatabase, type SchemaEngine } from './engine';
import { readMigrations, readSchema, schemaFilter, writeMigration } from './history';

export interface MigrateOptions {
  /** Receives progress lines; nothing is printed without it. */
  log?: (line: string) => void;
}

/** Applies the pending migrations to `databaseUrl` (created if missing); returns the names applied. */
export async function migrateDeploy(databaseUrl: string, { log = () => {} }: MigrateOptions = {}): Promise<string[]> {
  if (await ensureDatabase(databaseUrl)) log(`Created database ${databaseName(databaseUrl)}`);
  return withEngine(databaseUrl, async (engine) => {
    const migrationsList = await readMigrations();
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: schemaFilter });
    for (const name of appliedMigrationNames) log(`Applied ${name}`);
    const total = migrationsList.migrationDirectories.length;
    log(
      appliedMigrationNames.length === 0
        ? `No pending migrations: ${databaseName(databaseUrl)} is up to date (${plural(total, 'migration')}).`
        : `Applied ${plural(appliedMigrationNames.length, 'migration')} to ${databaseName(databaseUrl)}.`,
    );
    return appliedMigrationNames;
  });
}

/**
 * `prisma migrate dev`: applies pending migrations, then writes a migration for
 * the difference between the history and prisma/schema.prisma and applies it.
 * Returns the new migration's name, or null when the schema has no changes.
 */
export async function migrateDev(
  databaseUrl: string,
  name: string,
  { createOnly = false, force = false, log = () => {} }: MigrateOptions & { createOnly?: boolean; force?: boolean },
): Promise<string | null> {
  if (await ensureDatabase(databaseUrl)) log(`Created database ${databaseName(databaseUrl)}`);
  return withEngine(databaseUrl, async (engine, files) => {
    const schema = { files };
    const filters = schemaFilter;
    const migrationsList = await readMigrations();
    // devDiagnostic also prepares the shadow database state createMigration relies on.
    const { action } = await engine.devDiagnostic({ migrationsList, filters });
    if (action.tag === 'reset') {
      throw new Error(`${action.reason}\nThe database must be reset: drop it (the next run recreates it), then retry.`);
    }
    const pending = await engine.applyMigrations({ migrationsList, filters });
    for (const applied of pending.appliedMigrationNames) log(`Applied pending migration ${applied}`);
    if (pending.appliedMigrationNames.length > 0) await engine.devDiagnostic({ migrationsList, filters });

    const impact = await engine.evaluateDataLoss({ migrationsList, schema, filters });
    if (impact.migrationSteps === 0 && !createOnly) {
      log('No schema changes: prisma/schema.prisma matches the migrations history.');
      return null;
    }
    for (const { message } of impact.unexecutableSteps) log(`Cannot execute: ${message}`);
    for (const { message } of impact.warnings) log(`Warning: ${message}`);
    if (impact.unexecutableSteps.length > 0 && !createOnly) {
      throw new Error('The migration cannot be applied as is: use --create-only, edit the SQL, then deploy.');
    }
    if (impact.warnings.length > 0 && !force) throw new Error('The migration may lose data: pass --force to go on.');

    // As a draft (--create-only), even an empty migration is written, for hand-written SQL.
    const draft = createOnly;
    const created = await engine.createMigration({ migrationsList, schema, filters, migrationName: name, draft });
    if (created.migrationScript === null) {
      log('No schema changes: prisma/schema.prisma matches the migrations history.');
      return null;
    }
    const file = await writeMigration(created.generatedMigrationName, created.migrationScript, created.connectorType);
    log(`Created ${file}`);
    if (!createOnly) {
      const applied = await engine.applyMigrations({ migrationsList: await readMigrations(), filters });
      for (const appliedName of applied.appliedMigrationNames) log(`Applied ${appliedName}`);
    }
    return created.generatedMigrationName;
  });
}

/** Reports applied and pending migrations and drift; returns false when the database needs attention. */
export async function migrateStatus(databaseUrl: string, { log = () => {} }: MigrateOptions = {}): Promise<boolean> {
  return withEngine(databaseUrl, async (engine, files) => {
    const migrationsList = await readMigrations();
    const local = migrationsList.migrationDirectories.map((dir) => dir.path);
    const filters = schemaFilter;
    const diagnosis = await engine.diagnoseMigrationHistory({ migrationsList, filters, optInToShadowDatabase: false });
    const { history, failedMigrationNames: failed, editedMigrationNames: edited } = diagnosis;
    const applied = diagnosis.hasMigrationsTable ? await appliedMigrations(databaseUrl) : [];
    const pending = history && 'unappliedMigrationNames' in history ? history.unappliedMigrationNames : [];
    const notLocal = history && 'unpersistedMigrationNames' in history ? history.unpersistedMigrationNames : [];

    log(`${plural(local.length, 'migration')} in prisma/migrations, database ${databaseName(databaseUrl)}`);
    listNames(log, 'Applied', applied);
    listNames(log, 'Pending', pending);
    listNames(log, 'Failed', failed);
    listNames(log, 'Edited after being applied', edited);
    listNames(log, 'Applied but missing from prisma/migrations', notLocal);
    if (!diagnosis.hasMigrationsTable && local.length > 0) log('The database has no _prisma_migrations table yet.');

    // Both comparisons replay the migrations on a shadow database.
    const migrations: DiffTarget = { tag: 'migrations', ...migrationsList };
    let drift: string | null = null;
    if (history === null && failed.length === 0) {
      drift = await diffSummary(engine, migrations, { tag: 'schemaDatasource', files, configDir: process.cwd() });
      log(drift === null ? 'Drift: none.' : `Drift: the database differs from what the migrations create:\n${drift}`);
    } else {
      log('Drift: not checked until the migrations above are applied or resolved.');
    }
    const unmigrated = await diffSummary(engine, migrations, { tag: 'schemaDatamodel', files }).catch(
      (error: unknown) => `  (could not compare: ${describeMigrationError(error)})`,
    );
    if (unmigrated !== null) log(`prisma/schema.prisma has changes not in any migration:\n${unmigrated}`);
    return history === null && failed.length === 0 && edited.length === 0 && drift === null;
  });
}

/** Human-readable summary of the changes from `from` to `to`, or null when there are none. */
async function diffSummary(engine: SchemaEngine, from: DiffTarget, to: DiffTarget): Promise<string | null> {
  const { exitCode, stdout } = await engine.diff({ from, to, script: false, exitCode: true, filters: schemaFilter });
  return exitCode === 2 ? (stdout ?? '').replace(/^\n+|\s+$/g, '') : null;
}

async function appliedMigrations(databaseUrl: string): Promise<string[]> {
  const { rows } = await runAdminQuery(
    databaseUrl,
    `SELECT migration_name FROM _prisma_migrations
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name`,
  );
  return rows.map((row: { migration_name: string }) => row.migration_name);
}

async function withEngine<T>(
  databaseUrl: string,
  run: (engine: SchemaEngine, schemaFiles: SchemaContainer[]) => Promise<T>,
): Promise<T> {
  const files = await readSchema();
  const { engine, close } = await openEngine(databaseUrl, files);
  try {
    return await run(engine, files);
  } finally {
    await close();
  }
}

/** Creates the database of `databaseUrl` from the `postgres` database if it does not exist; true when created. */
export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const missing = await runAdminQuery(databaseUrl, 'SELECT 1').then(
    () => false,
    (error: { code?: string }) => (error.code === '3D000' ? true : Promise.reject(error)), // invalid_catalog_name
  );
  if (missing) {
    const name = databaseName(databaseUrl).replaceAll('"', '""');
    await runAdminQuery(withDatabase(databaseUrl, 'postgres'), `CREATE DATABASE "${name}"`);
  }
  return missing;
}

function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function listNames(log: (line: string) => void, title: string, names: string[]): void {
  if (names.length > 0) log(`${title}:\n${names.map((name) => `  ${name}`).join('\n')}`);
}

/** The message without the engine's span trace, after the Prisma error code (P3009, ...) and failed migration. */
export function describeMigrationError(error: unknown): string {
  const { message = String(error), code } = (error ?? {}) as { message?: string; code?: unknown };
  const [text, trace = ''] = message.split(/\n(?=\s+0: )/);
  const migration = /migration_name="([^"]+)"/.exec(trace)?.[1];
  const prefix = [
    typeof code === 'string' && /^P\d+$/.test(code) ? code : '',
    migration ? `Migration ${migration} failed` : '',
  ].filter(Boolean);
  return [...prefix, text.trim()].join(': ');
}
