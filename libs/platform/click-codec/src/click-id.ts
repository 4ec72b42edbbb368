import { randomFillSync } from 'node:crypto';

/** Random bytes drawn in blocks (one syscall per 409 ids instead of one per id: the redirect makes one per click). */
const POOL = Buffer.alloc(4096);
let offset = POOL.length;
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
/** The id's first 14 characters (48-bit time, dashes) of the last millisecond asked for: visits share it. */
let lastMs = -1;
let lastPrefix = '';

/**
 * A click id: a UUIDv7 (RFC 9562) whose 48-bit timestamp is the click's time in milliseconds,
 * so ids are time-ordered (index pages fill at the right edge) and the id says which monthly
 * partition of `clicks` its row is in (`clickIdTime`). The edge makes it from the same clock
 * reading as `clickedAt`; 74 random bits make a collision within one millisecond negligible.
 * Built from a hex table with no Buffer per id (the redirect makes one per visit).
 */
export function newClickId(ms: number = Date.now()): string {
  const t = Math.floor(ms);
  if (t !== lastMs) {
    const h = t.toString(16).padStart(12, '0');
    lastPrefix = `${h.slice(0, 8)}-${h.slice(8, 12)}-`;
    lastMs = t;
  }
  if (offset + 10 > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const o = offset;
  offset += 10;
  const r = POOL;
  return (
    lastPrefix +
    HEX[0x70 | (r[o] & 0x0f)] + HEX[r[o + 1]] + '-' + // version 7
    HEX[0x80 | (r[o + 2] & 0x3f)] + HEX[r[o + 3]] + '-' + // variant 10
    HEX[r[o + 4]] + HEX[r[o + 5]] + HEX[r[o + 6]] + HEX[r[o + 7]] + HEX[r[o + 8]] + HEX[r[o + 9]]
  );
}

/** The millisecond timestamp of a UUIDv7, or null for another version (clicks made before v7 ids are v4). */
export function clickIdTime(id: string): number | null {
  const hex = id.replace(/-/g, '');
  if (hex.length !== 32 || hex[12] !== '7') return null;
  return parseInt(hex.slice(0, 12), 16);
}
