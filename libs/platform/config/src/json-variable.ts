/**
 * The JSON object a variable holds (PLAN_LIMITS, STRIPE_PRICES); else an Error naming the variable
 * (with `example` when it is not JSON at all).
 */
export function parseJsonObjectVariable(name: string, json: string, example: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error(`${name} must be JSON, e.g. ${example}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error(`${name} must be a JSON object`);
  return raw as Record<string, unknown>;
}
