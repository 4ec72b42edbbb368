import { dailySplit, wholeUtcDays } from './cube-daily';

describe(dailySplit.name, () => {
  it("reads the month of `to` from its month row when the window holds the month's first day", () => {
    expect(dailySplit({ from: '2025-11-30', to: '2026-11-29' })).toEqual({
      days: [{ from: '2025-11-30', to: '2025-11-30' }],
      months: { from: '2025-12-01', to: '2026-10-01' },
      openMonth: '2026-11-01',
    });
    expect(dailySplit({ from: '2026-10-31', to: '2026-11-29' })).toEqual({ days: [{ from: '2026-10-31', to: '2026-10-31' }], openMonth: '2026-11-01' });
    expect(dailySplit({ from: '2026-11-01', to: '2026-11-01' })).toEqual({ days: [], openMonth: '2026-11-01' });
  });

  it('keeps whole months and day rows otherwise', () => {
    expect(dailySplit({ from: '2026-11-02', to: '2026-11-29' })).toEqual({ days: [{ from: '2026-11-02', to: '2026-11-29' }] });
    expect(dailySplit({ from: '2026-02-01', to: '2026-03-31' })).toEqual({ days: [], months: { from: '2026-02-01', to: '2026-03-01' } });
    expect(dailySplit({ from: '2024-02-10', to: '2024-02-29' })).toEqual({ days: [{ from: '2024-02-10', to: '2024-02-29' }] });
  });
});

describe(wholeUtcDays.name, () => {
  const at = (iso: string) => new Date(iso);
  it('leaves out the partial UTC days at both edges of a window in another zone', () => {
    // New York in June (UTC-4): 1-10 June there.
    expect(wholeUtcDays(at('2026-06-01T04:00:00Z'), at('2026-06-11T04:00:00Z'))).toEqual({ from: '2026-06-02', to: '2026-06-10' });
    // Kolkata (UTC+5:30): 1-10 June there.
    expect(wholeUtcDays(at('2026-05-31T18:30:00Z'), at('2026-06-10T18:30:00Z'))).toEqual({ from: '2026-06-01', to: '2026-06-09' });
  });

  it('keeps days whose bounds are UTC midnights, and answers none for a window within two UTC days', () => {
    expect(wholeUtcDays(at('2026-06-01T00:00:00Z'), at('2026-06-11T00:00:00Z'))).toEqual({ from: '2026-06-01', to: '2026-06-10' });
    expect(wholeUtcDays(at('2026-06-01T04:00:00Z'), at('2026-06-02T04:00:00Z'))).toBeUndefined();
    expect(wholeUtcDays(at('2026-06-01T00:00:00Z'), at('2026-06-01T23:00:00Z'))).toBeUndefined();
  });
});
