import { clickIdTime, newClickId } from './click-id';

describe(newClickId.name, () => {
  it('is a UUIDv7 carrying the given millisecond', () => {
    const at = Date.UTC(2026, 10, 25, 6, 30, 0, 123);
    const id = newClickId(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(clickIdTime(id)).toBe(at);
  });

  it('sorts by time and never repeats', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => newClickId(1_700_000_000_000 + Math.floor(i / 10)));
    expect(new Set(ids).size).toBe(ids.length);
    const byTime = [...ids].sort((a, b) => clickIdTime(a)! - clickIdTime(b)!);
    expect(ids.map((id) => id.slice(0, 13))).toEqual(byTime.map((id) => id.slice(0, 13)));
  });

  it('has no time for a v4 id', () => {
    expect(clickIdTime('7d3f1c2e-9b1a-4c6d-8e2f-0a1b2c3d4e5f')).toBeNull();
  });
});
