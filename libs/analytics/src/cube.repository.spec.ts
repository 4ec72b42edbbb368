import { dailySplit } from './cube.repository';

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
