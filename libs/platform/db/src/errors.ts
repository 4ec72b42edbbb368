import { Prisma } from './generated/prisma/client';

/** True when err is a unique-constraint violation (optionally on one of `fields`). */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2002') return false;
  if (!field) return true;
  const target = JSON.stringify(err.meta ?? {});
  return target.includes(field);
}

const SQLSTATE = /^[0-9A-Z]{5}$/;
/** Prisma's own error codes (P1xxx-P6xxx) look like SQLSTATEs of class P0 (PL/pgSQL): told apart here. */
const PRISMA_CODE = /^P[1-9]\d{3}$/;

/**
 * The Postgres SQLSTATE behind an error from `pg` (`code`) or from Prisma's driver adapter
 * (`meta.driverAdapterError.cause.originalCode`, or a `cause` chain), or null.
 */
export function sqlState(err: unknown, depth = 0): string | null {
  if (!err || typeof err !== 'object' || depth > 5) return null;
  const e = err as { code?: unknown; cause?: unknown; meta?: Record<string, unknown> };
  if (typeof e.code === 'string' && SQLSTATE.test(e.code) && !PRISMA_CODE.test(e.code)) return e.code;
  const adapter = e.meta?.driverAdapterError as { cause?: { originalCode?: unknown; code?: unknown } } | undefined;
  const original = adapter?.cause?.originalCode ?? adapter?.cause?.code;
  if (typeof original === 'string' && SQLSTATE.test(original)) return original;
  if (typeof e.meta?.code === 'string' && SQLSTATE.test(e.meta.code)) return e.meta.code;
  return sqlState(e.cause, depth + 1);
}

/** Prisma's own codes for a value the database refused (when no SQLSTATE is attached). */
const PRISMA_DATA_CODES = new Set(['P2000', 'P2003', 'P2004', 'P2005', 'P2006', 'P2007', 'P2011', 'P2012', 'P2019', 'P2020', 'P2023']);

/**
 * True when the database refused the DATA of a write, so retrying the same rows can never
 * succeed: SQLSTATE class 22 (data exception: NUL `22021`, bad encoding `22P05`, value too
 * long `22001`, invalid text for a type `22P02` …) or 23 (integrity constraint violation:
 * not-null, foreign key, check, unique). Everything else — connection errors (class 08),
 * shutdown (57P01-57P03), resource limits (53), serialization failures (40), a timeout, an
 * error without a SQLSTATE — is an infrastructure problem: the caller rethrows so the job is
 * retried, and nothing is dead-lettered (decisions §14).
 */
export function isDataError(err: unknown): boolean {
  const state = sqlState(err);
  if (state) return state.startsWith('22') || state.startsWith('23');
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Prisma.PrismaClientKnownRequestError && typeof code === 'string' && PRISMA_DATA_CODES.has(code);
}

/** `<SQLSTATE>: <Postgres message>` when known (Prisma wraps both), else the error's message. */
export function databaseErrorText(err: unknown): string {
  const e = err as { message?: unknown; meta?: { driverAdapterError?: { cause?: { originalMessage?: unknown } } } } | null;
  const original = e?.meta?.driverAdapterError?.cause?.originalMessage;
  const message = typeof original === 'string' ? original : e && typeof e.message === 'string' ? e.message : String(err);
  const state = sqlState(err);
  return state ? `${state}: ${message}` : message;
}
