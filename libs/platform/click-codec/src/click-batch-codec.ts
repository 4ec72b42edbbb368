import type { ClickCapturedJob } from './click-job';

/**
 * The packed form of a `click.batch` payload, as the edge sends it. Each distinct string of the
 * batch (link and organization ids, click times, addresses, user agents, referrers, languages)
 * is written once in `s`; a click is its id in `i` plus {@link PACKED_FIELDS} numbers in `r`
 * (an index in `s`, or -1 for a missing fact). A flush of 500 clicks to a few links from a few
 * browsers is a quarter of the bytes of `{clicks: [...]}`: less for the redirect to build, and
 * less it holds while ioredis keeps the command until Redis answers.
 */
export interface PackedClickBatch {
  v: 2;
  /** The batch's distinct strings. */
  s: string[];
  /** Click ids, in order. */
  i: string[];
  /** Per click: linkId, organizationId, clickedAt, ip, userAgent, referrer, acceptLanguage (index in `s`, -1 = missing), variantIndex, ruleIndex (-1 = none). */
  r: number[];
  /** utm_* queries by click position (only clicks that have one). */
  q?: Record<string, Record<string, string>>;
}

/** The numbers per click in `r`. */
export const PACKED_FIELDS = 9;
const STRING_FIELDS = ['linkId', 'organizationId', 'clickedAt', 'ip', 'userAgent', 'referrer', 'acceptLanguage'] as const;

/** Packs clicks for a `click.batch` job (the consumer reads both this and `{clicks}`). */
export function packClickBatch(clicks: readonly ClickCapturedJob[]): PackedClickBatch {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const intern = (value: string | null | undefined): number => {
    if (value === null || value === undefined) return -1;
    let n = index.get(value);
    if (n === undefined) {
      n = strings.push(value) - 1;
      index.set(value, n);
    }
    return n;
  };
  const ids = new Array<string>(clicks.length);
  const rows = new Array<number>(clicks.length * PACKED_FIELDS);
  let queries: Record<string, Record<string, string>> | undefined;
  for (let c = 0; c < clicks.length; c++) {
    const click = clicks[c];
    const o = c * PACKED_FIELDS;
    ids[c] = click.id;
    for (let f = 0; f < STRING_FIELDS.length; f++) rows[o + f] = intern(click[STRING_FIELDS[f]]);
    rows[o + 7] = click.variantIndex ?? -1;
    rows[o + 8] = click.ruleIndex ?? -1;
    if (click.query) (queries ??= {})[c] = click.query;
  }
  const packed: PackedClickBatch = { v: 2, s: strings, i: ids, r: rows };
  if (queries) packed.q = queries;
  return packed;
}

/**
 * The clicks of a `click.batch` payload in either form, unvalidated (the consumer checks each
 * click as before): a string index out of range becomes `false`, which no click field accepts.
 * Null when the payload is neither form (the job can never succeed).
 */
export function unpackClickBatch(payload: unknown): unknown[] | null {
  if (!payload || typeof payload !== 'object') return null;
  const p = payload as Record<string, unknown>;
  if (p.v === undefined) return Array.isArray(p.clicks) ? p.clicks : null;
  if (p.v !== 2 || !Array.isArray(p.s) || !Array.isArray(p.i) || !Array.isArray(p.r) || p.r.length !== p.i.length * PACKED_FIELDS) return null;
  const queries = p.q === undefined ? undefined : p.q;
  if (queries !== undefined && (!queries || typeof queries !== 'object' || Array.isArray(queries))) return null;
  const strings = p.s as unknown[];
  const rows = p.r as unknown[];
  const ids = p.i as unknown[];
  const clicks = new Array<unknown>(ids.length);
  for (let c = 0; c < ids.length; c++) {
    const o = c * PACKED_FIELDS;
    const click: Record<string, unknown> = { id: ids[c] };
    for (let f = 0; f < STRING_FIELDS.length; f++) {
      const n = rows[o + f];
      if (n === -1) continue;
      click[STRING_FIELDS[f]] = Number.isInteger(n) && (n as number) >= 0 && (n as number) < strings.length ? strings[n as number] : false;
    }
    if (rows[o + 7] !== -1) click.variantIndex = rows[o + 7];
    if (rows[o + 8] !== -1) click.ruleIndex = rows[o + 8];
    const query = (queries as Record<string, unknown> | undefined)?.[c];
    if (query !== undefined) click.query = query;
    clicks[c] = click;
  }
  return clicks;
}
