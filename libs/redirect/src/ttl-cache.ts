/**
 * A bounded in-process cache with per-entry expiry. Least recently inserted/refreshed
 * entries go first when full (Map insertion order); reads do not reorder, which keeps a
 * hit at one Map lookup on the hot path.
 */
export class TtlCache<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();

  constructor(private readonly capacity: number) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.map.get(key);
    if (!entry) return undefined;
    if (entry.expires <= now) {
      this.map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** The value even when expired (stale-while-revalidate), with its freshness. */
  peek(key: string, now = Date.now()): { value: V; fresh: boolean } | undefined {
    const entry = this.map.get(key);
    return entry ? { value: entry.value, fresh: entry.expires > now } : undefined;
  }

  set(key: string, value: V, ttlMs: number, now = Date.now()): void {
    if (this.map.has(key)) this.map.delete(key);
    else if (this.map.size >= this.capacity) this.map.delete(this.map.keys().next().value as string);
    this.map.set(key, { value, expires: now + ttlMs });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
