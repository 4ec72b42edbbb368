/**
 * A bounded memo cache for per-process lookups on the click path (user agents,
 * referrers, IP locations). Two generations: new entries go to the young map;
 * when it holds half the capacity it becomes the old one and the previous old
 * map is dropped whole. A hit in the old generation moves the entry to the young
 * one, so entries in use survive. No per-entry bookkeeping on a hit and no
 * per-entry eviction (a least-recently-used Map re-inserted on every hit and
 * evicted one iterator at a time cost more than the lookups it saved).
 */
export class BoundedCache<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(capacity: number) {
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const aged = this.old.get(key);
    if (aged !== undefined) this.set(key, aged);
    return aged;
  }

  set(key: K, value: V): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
