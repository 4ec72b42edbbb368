import { Logger } from '@nestjs/common';

/** A dependency whose outage an app outlives. */
export type Dependency = 'postgres' | 'redis';

/** SQLSTATE class 08 (connection exception) and the shutdown / not-yet-up codes. */
const PG_UNAVAILABLE = /^(08...|57P01|57P02|57P03|53300)$/;
/** Socket-level failures (the peer is not there, went away or is unreachable). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND']);
/** Prisma's "cannot reach / lost the server / pool timed out" codes. */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Prisma driver-adapter error kinds for the same. */
const ADAPTER_UNAVAILABLE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const PG_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Cannot use a pool after calling end on the pool',
  'Client was closed and is not queryable',
  'the database system is',
  'terminating connection due to administrator command',
  "Can't reach database server",
  'Server has closed the connection',
];
const REDIS_MESSAGES = [
  'Connection is closed',
  "Stream isn't writeable",
  'Reached the max retries per request limit',
  'did not accept the job in time',
];

interface ErrorShape {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  kind?: unknown;
  cause?: unknown;
  errors?: unknown;
  syscall?: unknown;
}

function dependencyOf(err: unknown, depth: number): Dependency | 'network' | null {
  if (depth > 4 || err === null || typeof err !== 'object') return null;
  const e = err as ErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (PG_UNAVAILABLE.test(code) || PRISMA_UNAVAILABLE.has(code)) return 'postgres';
  if (typeof e.kind === 'string' && ADAPTER_UNAVAILABLE.has(e.kind)) return 'postgres';
  if (e.name === 'MaxRetriesPerRequestError' || e.name === 'QueueTimeoutError') return 'redis';
  if (PG_MESSAGES.some((m) => message.includes(m))) return 'postgres';
  if (REDIS_MESSAGES.some((m) => message.includes(m))) return 'redis';
  // Prisma's driver adapter keeps the original under `cause` (and its own shape under cause.kind).
  const inner = dependencyOf(e.cause, depth + 1);
  if (inner) return inner;
  // AggregateError of a connect to several addresses.
  if (Array.isArray(e.errors)) {
    for (const one of e.errors) {
      const found = dependencyOf(one, depth + 1);
      if (found) return found;
    }
  }
  if (SOCKET_CODES.has(code)) return 'network';
  return null;
}

/**
 * Whether `err` says a dependency is unavailable (connection refused/reset/terminated, SQLSTATE
 * class 08, 57P01/57P03, a Redis connection error, a queue add that timed out) rather than that
 * the work itself is wrong. Such errors are retried without limit and never spend a job's
 * attempt; at the HTTP edge they are 503 with `Retry-After`. Data errors (a value Postgres
 * refuses) are not infrastructure errors.
 */
export function isInfraError(err: unknown): boolean {
  return dependencyOf(err, 0) !== null;
}

/** The dependency an infrastructure error points at (`fallback` when the error does not say, e.g. a bare ECONNREFUSED). */
export function infraDependency(err: unknown, fallback: Dependency): Dependency | null {
  const found = dependencyOf(err, 0);
  if (found === null) return null;
  return found === 'network' ? fallback : found;
}

/** One warning per dependency per this long while it is down. */
export const OUTAGE_WARNING_INTERVAL_MS = 30_000;

interface OutageState {
  lastWarned: number;
  suppressed: number;
  down: boolean;
}

const states = new Map<string, OutageState>();
const logger = new Logger('Outage');

function stateOf(key: string): OutageState {
  let s = states.get(key);
  if (!s) states.set(key, (s = { lastWarned: 0, suppressed: 0, down: false }));
  return s;
}

/**
 * Reports that `dependency` is unavailable: one warning line per dependency per 30 s in this
 * process (with how many reports were folded into it), never a stack trace per request or job.
 * `what` says what was affected (e.g. `pixel site lookup`).
 */
export function reportOutage(dependency: Dependency, err: unknown, what: string, now = Date.now()): void {
  const s = stateOf(dependency);
  s.down = true;
  if (now - s.lastWarned < OUTAGE_WARNING_INTERVAL_MS) {
    s.suppressed++;
    return;
  }
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as ErrorShape | null)?.code;
  logger.warn(
    { dependency, what, error: message, ...(typeof code === 'string' ? { code } : {}), suppressed: s.suppressed },
    `${dependency} unavailable`,
  );
  s.lastWarned = now;
  s.suppressed = 0;
}

/** Reports that `dependency` answers again (logged once, after an outage was reported). */
export function reportRecovered(dependency: Dependency): void {
  const s = states.get(dependency);
  if (!s?.down) return;
  s.down = false;
  s.lastWarned = 0;
  logger.log({ dependency, suppressed: s.suppressed }, `${dependency} available again`);
  s.suppressed = 0;
}

/** True while an outage of `dependency` was reported and no recovery since. */
export function isReportedDown(dependency: Dependency): boolean {
  return states.get(dependency)?.down ?? false;
}

/** Seconds a client is told to wait (`Retry-After`) when a dependency is down. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
