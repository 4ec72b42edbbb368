import { groupingMask } from './cube.repository';
import { previousWindow, sampleBitsFor, todayIn, zonedWindow } from './org-analytics.service';

describe('organization-wide view rules', () => {
  it('days count back from today in the zone; from/to are taken as given', () => {
    // 23:30 UTC on Jan 31 is already Feb 1 in Berlin.
    const now = new Date('2026-01-31T23:30:00Z');
    expect(todayIn('Europe/Berlin', now)).toBe('2026-02-01');
    expect(zonedWindow({ days: 3, tz: 'Europe/Berlin' }, now)).toEqual({ from: '2026-01-30', to: '2026-02-01', tz: 'Europe/Berlin' });
    expect(zonedWindow({}, now)).toEqual({ from: '2026-01-02', to: '2026-01-31', tz: 'UTC' });
    expect(zonedWindow({ from: '2025-03-01', to: '2025-03-02', days: 5 }, now)).toEqual({ from: '2025-03-01', to: '2025-03-02', tz: 'UTC' });
  });

  it('the previous window has the same length and ends the day before', () => {
    expect(previousWindow({ from: '2026-03-01', to: '2026-03-10', tz: 'UTC' })).toEqual({ from: '2026-02-19', to: '2026-02-28', tz: 'UTC' });
    expect(previousWindow({ from: '2026-03-01', to: '2026-03-01', tz: 'Asia/Tokyo' })).toEqual({ from: '2026-02-28', to: '2026-02-28', tz: 'Asia/Tokyo' });
  });

  it('reads the largest visitor sample that holds at most the exact bound, down to 1/256', () => {
    expect(sampleBitsFor(0, 50_000)).toBe(0);
    expect(sampleBitsFor(50_000, 50_000)).toBe(0);
    expect(sampleBitsFor(50_001, 50_000)).toBe(1);
    expect(sampleBitsFor(10_000_000, 50_000)).toBe(8);
    expect(sampleBitsFor(1e12, 50_000)).toBe(8);
  });

  it("GROUPING()'s value sets a bit per column left out of the set, the first column the highest", () => {
    expect(groupingMask(['hour', 'link_id', 'country_code'], ['hour'])).toBe(0b011);
    expect(groupingMask(['hour', 'link_id', 'country_code'], ['country_code'])).toBe(0b110);
    expect(groupingMask(['hour', 'country_code', 'region', 'city'], ['country_code', 'region', 'city'])).toBe(0b1000);
  });
});
