import fc from 'fast-check';
import { clickTimeIso } from './click-time';

describe(clickTimeIso.name, () => {
  it('is toISOString of the millisecond, whatever came before it (repeats, out of order)', () => {
    const ms = fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    fc.assert(
      fc.property(fc.array(fc.oneof(ms, fc.constant(0), fc.constant(1_764_288_000_123)), { minLength: 1, maxLength: 50 }), (times) => {
        for (const t of times) {
          expect(clickTimeIso(t)).toBe(new Date(t).toISOString());
          expect(clickTimeIso(new Date(t + 1))).toBe(new Date(t + 1).toISOString());
        }
      }),
      { numRuns: 300 },
    );
  });
});
