import { Pool } from 'pg';

export interface PgPoolOptions {
  max: number;
  /** Fail a query that cannot get a connection in time instead of waiting forever. */
  connectionTimeoutMillis?: number;
}

/**
 * A small dedicated `pg` pool for a hot path that bypasses the ORM (the redirect's reads, link
 * list and insert, install attribution, the click pipeline's batches). An idle client losing its
 * connection must not crash the process: the next query reconnects.
 */
export function createPgPool(databaseUrl: string, { max, connectionTimeoutMillis }: PgPoolOptions): Pool {
  const pool = new Pool({ connectionString: databaseUrl, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis });
  pool.on('error', () => undefined);
  return pool;
}

/** Ends a pool once: Nest calls a provider's destroy hook once per module listing it, and tests close apps twice. */
export async function endPgPool(pool: Pool): Promise<void> {
  if (!pool.ended) await pool.end();
}
