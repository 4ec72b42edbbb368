import { Pool, PoolClient } from 'pg';

export interface PgPoolOptions {
  max: number;
  /** Fail a query that cannot get a connection in time instead of waiting forever. */
  connectionTimeoutMillis?: number;
}

const ignore = (): void => undefined;

/**
 * A `pg` pool (the hot paths' small dedicated pools, and Prisma's). A client losing its
 * connection must never crash the process: an idle client's error is the pool's 'error' event,
 * and a checked-out client between two queries of a transaction (a fast Postgres shutdown sends
 * 57P01 then) emits 'error' on itself, with no listener of the pool's. Both are handled here;
 * the query in flight fails with the error (and is retried by its caller), the next one reconnects.
 */
export function createPgPool(databaseUrl: string, { max, connectionTimeoutMillis }: PgPoolOptions): Pool {
  const pool = new Pool({ connectionString: databaseUrl, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis });
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  return pool;
}

/** Ends a pool once: Nest calls a provider's destroy hook once per module listing it, and tests close apps twice. */
export async function endPgPool(pool: Pool): Promise<void> {
  if (!pool.ended) await pool.end();
}

/**
 * Runs `fn` in one transaction on a client of `pool`, rolled back when it throws. A client whose
 * ROLLBACK fails (its connection is gone) is destroyed rather than returned to the pool.
 */
export async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    try {
      await client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}
