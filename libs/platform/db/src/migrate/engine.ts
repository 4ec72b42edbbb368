// Prisma's schema engine compiled to WebAssembly, connected to Postgres through
// @prisma/adapter-pg: migrations run wherever npm packages install, without the native
// schema-engine binary Prisma downloads on first use.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  bindMigrationAwareSqlAdapterFactory,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import type { SchemaContainer, SchemaEngine } from '@prisma/schema-engine-wasm/schema_engine_bg';
import pg from 'pg';

export type { SchemaEngine };

/** What we use of the wasm-bindgen glue module (schema_engine_bg.js). */
interface EngineBindings {
  SchemaEngine: typeof SchemaEngine;
  __wbg_set_wasm(exports: WasmExports): void;
  [name: string]: unknown;
}

// The WebAssembly global as used here (the ES2023 lib and @types/node 20 do not declare it).
type WasmExports = Record<string, unknown>;
declare const WebAssembly: {
  instantiate(
    bytes: Uint8Array,
    imports: Record<string, Record<string, unknown>>,
  ): Promise<{ instance: { exports: WasmExports } }>;
};

export interface OpenEngine {
  engine: SchemaEngine;
  /** Frees the engine, disposes every adapter and drops leftover shadow databases. */
  close(): Promise<void>;
}

let bindings: Promise<EngineBindings> | undefined;

/**
 * Loads the wasm module once per process. The package is ESM-only and its main
 * entry imports a .wasm file, which Node 20 cannot load; Jest (before Node 24.9)
 * cannot `require` ESM at all. So the glue file is evaluated in the caller's
 * realm (it relies on `instanceof Promise` / `Uint8Array` for values we pass in)
 * with its `export` keywords stripped, and the .wasm is instantiated by hand.
 */
function loadBindings(): Promise<EngineBindings> {
  bindings ??= (async () => {
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const names: string[] = [];
    const body = readFileSync(gluePath, 'utf8').replace(
      /^export (function|class) (\w+)/gm,
      (_match, kind: string, name: string) => (names.push(name), `${kind} ${name}`),
    );
    if (/^\s*(import|export)\b/m.test(body)) {
      throw new Error(`${gluePath}: unexpected module syntax; update libs/platform/db/src/migrate/engine.ts`);
    }
    const glue = new Function(`'use strict';\n${body}\nreturn { ${names.join(', ')} };`)() as EngineBindings;

    const wasm = await readFile(join(dirname(gluePath), 'schema_engine_bg.wasm'));
    const { instance } = await WebAssembly.instantiate(wasm, { './schema_engine_bg.js': withUnrefTimers(glue) });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return bindings;
}

/**
 * The engine arms timeouts (about 10 s) that stay pending after each command and
 * would keep the process alive; an in-flight command always has a pg socket open,
 * so unref'ing them cannot end the process early.
 */
function withUnrefTimers(glue: EngineBindings): EngineBindings {
  const imports: EngineBindings = { ...glue };
  for (const name of Object.keys(glue).filter((key) => key.startsWith('__wbg_setTimeout_'))) {
    imports[name] = (callback: () => void, ms: number) => setTimeout(callback, ms >>> 0).unref();
  }
  return imports;
}

/** Opens a schema engine on `databaseUrl` for the given Prisma schema files. */
export async function openEngine(databaseUrl: string, schemaFiles: SchemaContainer[]): Promise<OpenEngine> {
  const glue = await loadBindings();
  const factory = new PgMigrationFactory(databaseUrl);
  const log = (line: string) => process.env.MIGRATE_DEBUG && process.stderr.write(`${line}\n`);
  let engine: SchemaEngine;
  try {
    const datamodels = schemaFiles.map((file): [string, string] => [file.path, file.content]);
    engine = await glue.SchemaEngine.new({ datamodels }, log, bindMigrationAwareSqlAdapterFactory(factory));
  } catch (error) {
    await factory.disposeAll();
    throw error;
  }
  return {
    engine,
    async close() {
      engine.free();
      await factory.disposeAll();
    },
  };
}

/** Connects to Postgres with the three adapter-pg 7.10.1 gaps worked around. */
class PgMigrationFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = '@prisma/adapter-pg';
  private readonly open = new Set<SqlDriverAdapter>();

  constructor(private readonly databaseUrl: string) {}

  connect(): Promise<SqlDriverAdapter> {
    return this.connectTo(this.databaseUrl);
  }

  /**
   * Gap 3: adapter-pg's connectToShadowDb connects to the main database whenever
   * a connection string is given (it overrides the database name), so the
   * "shadow" would be the real database. Create a throw-away database instead.
   */
  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const name = `prisma_migrate_shadow_db_${randomUUID().replaceAll('-', '')}`;
    const drop = () => runAdminQuery(this.databaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await runAdminQuery(this.databaseUrl, `CREATE DATABASE "${name}"`);
    const adapter = await this.connectTo(withDatabase(this.databaseUrl, name)).catch(async (error: unknown) => {
      await drop();
      throw error;
    });
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await drop();
    };
    return adapter;
  }

  /** Disposes the adapters the engine has not disposed itself (ending pools, dropping shadow databases). */
  async disposeAll(): Promise<void> {
    const results = await Promise.allSettled([...this.open].map((adapter) => adapter.dispose()));
    const failures = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    if (failures.length > 0) throw new AggregateError(failures, 'Could not close the database connections');
  }

  private async connectTo(url: string): Promise<SqlDriverAdapter> {
    const pool = new pg.Pool({ connectionString: url });
    mapCharColumnsToText(pool);
    const adapter = sendScriptsAsOneQuery(await new PrismaPg(pool, { disposeExternalPool: true }).connect());
    this.open.add(adapter);
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      if (this.open.delete(adapter)) await dispose();
    };
    return adapter;
  }
}

const CHAR_OID = 18;
const TEXT_OID = 25;

/**
 * Gap 1: Postgres' internal `"char"` type (oid 18, in the catalog columns the
 * engine introspects) has no mapping in adapter-pg, and every inspection fails
 * with "Column type 'char' could not be deserialized". Its values arrive as
 * strings, so relabel such columns as text before the adapter looks at them.
 */
function mapCharColumnsToText(pool: pg.Pool): void {
  const relabel = (result: unknown) => {
    for (const { fields } of [result].flat() as pg.QueryResult[]) {
      for (const field of fields ?? []) if (field.dataTypeID === CHAR_OID) field.dataTypeID = TEXT_OID;
    }
    return result;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const callback = args.at(-1);
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => callback(error, error ? result : relabel(result));
        return query(...args);
      }
      const returned = query(...args);
      return isThenable(returned) ? returned.then(relabel) : returned;
    };
  });
}

function isThenable(value: unknown): value is Promise<unknown> {
  return typeof (value as Promise<unknown> | undefined)?.then === 'function';
}

/**
 * Gap 2: adapter-pg's executeScript splits the script on every `;`, which breaks
 * `$$` function bodies and runs a migration statement by statement. Send the
 * whole script as one simple-protocol query (no parameters), as the native
 * engine does, so Postgres runs it in one implicit transaction.
 */
function sendScriptsAsOneQuery(adapter: SqlDriverAdapter): SqlDriverAdapter {
  adapter.executeScript = async (script) => {
    await adapter.executeRaw({ sql: script, args: [], argTypes: [] });
  };
  return adapter;
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

/** Runs one statement on a short-lived connection (for CREATE/DROP DATABASE). */
export async function runAdminQuery(url: string, sql: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql, values);
  } finally {
    await client.end();
  }
}
