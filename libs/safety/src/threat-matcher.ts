/**
 * The loaded feeds as an open-addressing hash set of 64-bit fingerprints (two 32-bit hashes of
 * the canonical key), each with a one-byte reason. A million entries take 16 MB of typed arrays
 * instead of the ~150 MB a Map of strings would; a false match needs a 64-bit collision
 * (about 1 in 10^13 per lookup at a million entries).
 */
import { CanonicalUrl, canonicalizeUrl, hostSuffixes } from './canonical-url';
import { ThreatReason } from './verdict';

/** What an entry blocks: a whole URL, or a domain with its subdomains. */
export type EntryKind = 'url' | 'domain';

/** Reasons stored as one byte; index 0 means "empty slot". */
const REASONS: ThreatReason[] = ['malware', 'blocklisted URL', 'blocklisted domain'];

/** FNV-1a over UTF-16 code units, with a seed, then a murmur3 finaliser for spread. */
function hash32(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const namespaced = (kind: EntryKind, key: string) => (kind === 'url' ? 'u ' : 'd ') + key;

export class ThreatMatcher {
  private hi: Uint32Array;
  private lo: Uint32Array;
  private reason: Uint8Array;
  private mask: number;
  private count = 0;

  constructor(expectedEntries = 1024) {
    let capacity = 1024;
    while (capacity < expectedEntries * 2) capacity *= 2;
    this.allocate(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds a canonical URL key or domain; the first reason given for an entry stays. */
  add(kind: EntryKind, key: string, reason: ThreatReason): void {
    if ((this.count + 1) * 2 > this.hi.length) this.grow();
    const s = namespaced(kind, key);
    this.insert(hash32(s, 0), (hash32(s, 0x9e3779b9) | 1) >>> 0, REASONS.indexOf(reason) + 1);
  }

  /** The reason a canonical key or domain is listed, or null. */
  lookup(kind: EntryKind, key: string): ThreatReason | null {
    const s = namespaced(kind, key);
    const h = hash32(s, 0);
    const l = (hash32(s, 0x9e3779b9) | 1) >>> 0;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const r = this.reason[i];
      if (r === 0) return null;
      if (this.hi[i] === h && this.lo[i] === l) return REASONS[r - 1];
    }
  }

  /** The feed verdict of a URL: its exact entry first, then its host and each parent domain. */
  match(rawUrl: string): ThreatReason | null {
    const canonical = canonicalizeUrl(rawUrl);
    return canonical ? this.matchCanonical(canonical) : null;
  }

  /** `match` of a URL already canonicalised. */
  matchCanonical(canonical: CanonicalUrl): ThreatReason | null {
    if (this.count === 0) return null;
    const byUrl = this.lookup('url', canonical.key);
    if (byUrl) return byUrl;
    for (const suffix of hostSuffixes(canonical.host)) {
      const byDomain = this.lookup('domain', suffix);
      if (byDomain) return byDomain;
    }
    return null;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.hi.byteLength + this.lo.byteLength + this.reason.byteLength;
  }

  private insert(h: number, l: number, r: number): void {
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      if (this.reason[i] === 0) {
        this.hi[i] = h;
        this.lo[i] = l;
        this.reason[i] = r;
        this.count++;
        return;
      }
      if (this.hi[i] === h && this.lo[i] === l) return;
    }
  }

  private allocate(capacity: number): void {
    this.hi = new Uint32Array(capacity);
    this.lo = new Uint32Array(capacity);
    this.reason = new Uint8Array(capacity);
    this.mask = capacity - 1;
  }

  private grow(): void {
    const { hi, lo, reason } = this;
    this.allocate(hi.length * 2);
    this.count = 0;
    for (let i = 0; i < hi.length; i++) if (reason[i] !== 0) this.insert(hi[i], lo[i], reason[i]);
  }
}
