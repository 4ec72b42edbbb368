import { randomFillSync } from 'node:crypto';

/** Random bytes drawn in blocks (one syscall per 409 ids instead of one per id: the redirect makes one per click). */
const POOL = Buffer.alloc(4096);
let offset = POOL.length;

function random10(): Buffer {
  if (offset + 10 > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const out = POOL.subarray(offset, offset + 10);
  offset += 10;
  return out;
}

/**
 * A click id: a UUIDv7 (RFC 9562) whose 48-bit timestamp is the click's time in milliseconds,
 * so ids are time-ordered (index pages fill at the right edge) and the id says which monthly
 * partition of `clicks` its row is in (`clickIdTime`). The edge makes it from the same clock
 * reading as `clickedAt`; 74 random bits make a collision within one millisecond negligible.
 */
export function newClickId(ms: number = Date.now()): string {
  const b = Buffer.allocUnsafe(16);
  b.writeUIntBE(Math.floor(ms), 0, 6);
  random10().copy(b, 6);
  b[6] = 0x70 | (b[6] & 0x0f); // version 7
  b[8] = 0x80 | (b[8] & 0x3f); // variant 10
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The millisecond timestamp of a UUIDv7, or null for another version (clicks made before v7 ids are v4). */
export function clickIdTime(id: string): number | null {
  const hex = id.replace(/-/g, '');
  if (hex.length !== 32 || hex[12] !== '7') return null;
  return parseInt(hex.slice(0, 12), 16);
}
