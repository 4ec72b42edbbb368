import { createHash } from 'node:crypto';

/** The chain's first link: the `prevHash` of an organization's first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** What the hash covers: every column of an entry but the hash itself. */
export interface HashedEntry {
  id: string;
  organizationId: string;
  seq: bigint | number | string;
  actorType: string;
  actorId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  changes: unknown;
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
  createdAt: Date;
  prevHash: string;
}

/**
 * JSON with object keys sorted at every level: the same value always gives the same text, so a
 * row read back from jsonb (which reorders keys) hashes as it did when it was written.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/** SHA-256 (hex) of an entry: its previous entry's hash and its own canonical content. */
export function entryHash(e: HashedEntry): string {
  const body = canonicalJson({
    id: e.id,
    organizationId: e.organizationId,
    seq: String(e.seq),
    actorType: e.actorType,
    actorId: e.actorId,
    action: e.action,
    targetType: e.targetType,
    targetId: e.targetId,
    changes: e.changes ?? null,
    ip: e.ip,
    userAgent: e.userAgent,
    requestId: e.requestId,
    createdAt: e.createdAt.toISOString(),
  });
  return createHash('sha256').update(e.prevHash).update('\n').update(body).digest('hex');
}

/** The first entry of a chain walk (in `seq` order) that does not hold; null when all do. */
export class ChainVerifier {
  private previous: string | null = null;
  private count = 0;
  firstBrokenId: string | null = null;

  /** Feeds the next entry in `seq` order. The first entry seen anchors the chain (older ones may be gone by retention). */
  next(e: HashedEntry & { hash: string }): void {
    this.count++;
    if (this.firstBrokenId) return;
    const linked = this.previous === null || e.prevHash === this.previous;
    if (!linked || entryHash(e) !== e.hash) this.firstBrokenId = e.id;
    this.previous = e.hash;
  }

  get entries(): number {
    return this.count;
  }
}
