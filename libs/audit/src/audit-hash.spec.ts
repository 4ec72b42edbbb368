import { canonicalJson, ChainVerifier, entryHash, GENESIS_HASH, HashedEntry } from './audit-hash';
import { REDACTED, redactChanges } from './audit-redact';

const entry = (over: Partial<HashedEntry> = {}): HashedEntry => ({
  id: '00000000-0000-4000-8000-000000000001',
  organizationId: '00000000-0000-4000-8000-0000000000aa',
  seq: 1n,
  actorType: 'user',
  actorId: 'u1',
  action: 'link.created',
  targetType: 'link',
  targetId: 'l1',
  changes: { b: 1, a: { d: [1, 2], c: null } },
  ip: '203.0.113.1',
  userAgent: 'curl/8',
  requestId: 'r1',
  createdAt: new Date('2026-01-01T00:00:00.000Z'),
  prevHash: GENESIS_HASH,
  ...over,
});

describe('audit hash', () => {
  it('canonical JSON sorts keys at every level, so jsonb key order does not change a hash', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}');
    expect(entryHash(entry({ changes: { a: { c: null, d: [1, 2] }, b: 1 } }))).toBe(entryHash(entry()));
  });

  it('every field and the previous hash change the hash', () => {
    const base = entryHash(entry());
    const variants: Partial<HashedEntry>[] = [
      { seq: 2n }, { actorId: 'u2' }, { action: 'link.deleted' }, { targetId: 'l2' }, { changes: { b: 2 } }, { ip: null },
      { userAgent: 'x' }, { requestId: null }, { createdAt: new Date('2026-01-01T00:00:00.001Z') }, { prevHash: 'f'.repeat(64) },
    ];
    for (const v of variants) expect(entryHash(entry(v))).not.toBe(base);
  });

  it('the verifier names the first entry that is altered or does not link', () => {
    const e1 = entry();
    const h1 = { ...e1, hash: entryHash(e1) };
    const e2 = entry({ id: 'id-2', seq: 2n, prevHash: h1.hash });
    const h2 = { ...e2, hash: entryHash(e2) };
    const e3 = entry({ id: 'id-3', seq: 3n, prevHash: h2.hash });
    const h3 = { ...e3, hash: entryHash(e3) };
    const ok = new ChainVerifier();
    [h1, h2, h3].forEach((e) => ok.next(e));
    expect([ok.firstBrokenId, ok.entries]).toEqual([null, 3]);
    const altered = new ChainVerifier();
    [h1, { ...h2, targetId: 'other' }, h3].forEach((e) => altered.next(e));
    expect(altered.firstBrokenId).toBe('id-2');
    const gap = new ChainVerifier();
    [h1, h3].forEach((e) => gap.next(e));
    expect(gap.firstBrokenId).toBe('id-3');
  });

  it('redacts secret-named fields at any depth and keeps the rest', () => {
    expect(
      redactChanges({ name: 'CI', clientSecret: 's', nested: { password: 'p', token: 't', keep: 1 }, when: new Date(0), list: [{ apiKey: 'k' }] }),
    ).toEqual({ name: 'CI', clientSecret: REDACTED, nested: { password: REDACTED, token: REDACTED, keep: 1 }, when: '1970-01-01T00:00:00.000Z', list: [{ apiKey: REDACTED }] });
  });
});
