/** Field names whose values never reach the audit log (secrets, credentials, their hashes). */
const SECRET_NAME = /(secret|password|token|apikey|api_key|^key$|keyhash|hash|certificate|privatekey|recoverycode|code_verifier)/i;
export const REDACTED = '[redacted]';
const MAX_DEPTH = 6;
const MAX_STRING = 2048;

/**
 * A copy of `changes` fit for the audit log: secret-named fields replaced by `[redacted]` at
 * any depth, dates as ISO strings, long strings cut, functions and undefined dropped.
 */
export function redactChanges(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}…` : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (depth >= MAX_DEPTH || typeof value !== 'object') return null;
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactChanges(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === undefined || typeof v === 'function') continue;
    out[k] = SECRET_NAME.test(k) ? REDACTED : redactChanges(v, depth + 1);
  }
  return out;
}
