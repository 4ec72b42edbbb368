import { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';

/** Connection-class SQLSTATEs (08), shutdown / starting up (57P01-57P03), too many connections (53300). */
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;
/** A standby cancelled the query for a conflict with recovery (40001 on a standby): the primary answers it. */
const RECOVERY_CONFLICT = '40001';
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'the database system is',
  'terminating connection',
  'conflict with recovery',
];

/** True when `err` says the replica is not there (or cannot answer now), not that the query is wrong. */
export function isReplicaUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (UNAVAILABLE_STATE.test(code) || code === RECOVERY_CONFLICT || SOCKET_CODES.has(code)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  if (MESSAGES.some((m) => message.includes(m))) return true;
  return Array.isArray(e.errors) && e.errors.some(isReplicaUnavailable);
}

export interface ReadPoolOptions {
  max: number;
  /** How long a connect to the replica may take before the read goes to the primary. */
  connectionTimeoutMillis?: number;
  /** After a failure, reads go straight to the primary for this long before the replica is tried again. */
  retryAfterMs?: number;
  /** Called when a read falls back to the primary (the caller throttles its warning). */
  onFallback?: (err: unknown) => void;
  /**
   * How often the replica is asked whether it still streams from the primary
   * (`pg_stat_wal_receiver`); 0 turns the check off. A replica that is up but no longer
   * receiving WAL answers ever older data: reads go to the primary until it streams again.
   */
  streamCheckMs?: number;
}

/** Why reads left a replica that answers: it no longer receives the primary's WAL. */
export class ReplicaNotStreamingError extends Error {
  constructor(status: string | null) {
    super(`read replica is not streaming from the primary (WAL receiver ${status ?? 'not running'})`);
    this.name = 'ReplicaNotStreamingError';
  }
}

/**
 * A `pg` pool on the read replica (`DATABASE_READ_URL`) that answers from the primary's pool
 * when the replica is down or unreachable: a query or a connect that fails with a connection
 * error is run again on the primary (reads only: re-running one is harmless), and for
 * `retryAfterMs` every read goes to the primary without trying the replica (no connect
 * timeout paid per request during an outage). A subclass of `Pool` so that Prisma's
 * driver adapter accepts it (it checks `instanceof Pool`) and calls `query`/`connect` here.
 * Ending it ends the replica pool only; the primary pool belongs to its owner.
 */
export class ReadPool extends Pool {
  private downUntil = 0;
  private notStreaming = false;
  private readonly retryAfterMs: number;
  private readonly onFallback: (err: unknown) => void;
  private readonly streamCheck: NodeJS.Timeout | null;

  constructor(
    readUrl: string,
    private readonly primary: Pool,
    { max, connectionTimeoutMillis = 2_000, retryAfterMs = 5_000, onFallback = () => undefined, streamCheckMs = 5_000 }: ReadPoolOptions,
  ) {
    super({ connectionString: readUrl, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis });
    this.retryAfterMs = retryAfterMs;
    this.onFallback = onFallback;
    const ignore = (): void => undefined;
    this.on('error', ignore);
    this.on('connect', (client: PoolClient) => client.on('error', ignore));
    this.streamCheck = streamCheckMs > 0 ? setInterval(() => void this.checkStreaming(), streamCheckMs).unref() : null;
    if (this.streamCheck) void this.checkStreaming();
  }

  /** True while reads skip the replica: after a failure, or while it does not stream from the primary. */
  get replicaDown(): boolean {
    return this.notStreaming || Date.now() < this.downUntil;
  }

  /**
   * Asks the replica for its WAL receiver: no row (not running) or a status other than
   * `streaming` means its data is getting older, so reads go to the primary. A replica that
   * cannot be asked is left to the connection errors of real reads.
   */
  async checkStreaming(): Promise<void> {
    try {
      const { rows } = await (super.query('SELECT status FROM pg_stat_wal_receiver') as Promise<QueryResult<{ status: string | null }>>);
      const status = rows.length ? rows[0].status : null;
      // A role without pg_read_all_stats sees the row with its details hidden: taken as streaming.
      const streaming = rows.length > 0 && (status === null || status === 'streaming');
      if (!streaming && !this.notStreaming) this.onFallback(new ReplicaNotStreamingError(status));
      this.notStreaming = !streaming;
    } catch {
      // Unreachable: the reads' own fallback handles it.
    }
  }

  override async end(): Promise<void> {
    if (this.streamCheck) clearInterval(this.streamCheck);
    await super.end();
  }

  private fellBack(err: unknown): void {
    this.downUntil = Date.now() + this.retryAfterMs;
    this.onFallback(err);
  }

  // The promise forms only (Prisma's adapter and our callers use them).
  // One signature that satisfies every overload of Pool.query (and of connect below).
  override query(...args: any[]): any {
    if (typeof args[args.length - 1] === 'function') throw new Error('ReadPool: callback queries are not supported');
    const [config, values] = args as [QueryConfig | string, unknown[] | undefined];
    if (this.replicaDown) return this.primary.query(config, values);
    return (super.query(config, values) as Promise<QueryResult>).catch((err: unknown) => {
      if (!isReplicaUnavailable(err)) throw err;
      this.fellBack(err);
      return this.primary.query(config, values);
    });
  }

  override connect(...args: any[]): any {
    // The callback form is Pool.query's own checkout of a replica client (its failure reaches query's catch).
    if (args.length) return super.connect(args[0] as (err: Error | undefined, client: PoolClient | undefined, done: (release?: unknown) => void) => void);
    if (this.replicaDown) return this.primary.connect();
    return (super.connect() as Promise<PoolClient>).catch((err: unknown) => {
      if (!isReplicaUnavailable(err)) throw err;
      this.fellBack(err);
      return this.primary.connect();
    });
  }
}

/**
 * A throttled warning: at most one line per `everyMs`, with how many fallbacks it covers
 * (a replica outage under load is thousands of reads; one line every half minute says it).
 */
export function throttledWarning(warn: (count: number, err: unknown) => void, everyMs = 30_000): (err: unknown) => void {
  let last = 0;
  let count = 0;
  return (err) => {
    count += 1;
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    warn(count, err);
    count = 0;
  };
}
