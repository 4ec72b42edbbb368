import { splitWindow } from './analytics.repository';
import { dayWindow } from './link-analytics.service';

describe(splitWindow.name, () => {
  it('uses month rows for the months wholly inside the window and day rows around them', () => {
    expect(splitWindow({ from: '2025-11-23', to: '2026-11-22' })).toEqual({
      days: [
        { from: '2025-11-23', to: '2025-11-30' },
        { from: '2026-11-01', to: '2026-11-22' },
      ],
      months: { from: '2025-12-01', to: '2026-10-01', lastDay: '2026-10-31' },
    });
  });

  it('handles windows that start on a first and end on a month end', () => {
    expect(splitWindow({ from: '2026-02-01', to: '2026-03-31' })).toEqual({
      days: [],
      months: { from: '2026-02-01', to: '2026-03-01', lastDay: '2026-03-31' },
    });
  });

  it('keeps short windows on day rows', () => {
    expect(splitWindow({ from: '2026-10-24', to: '2026-11-22' })).toEqual({ days: [{ from: '2026-10-24', to: '2026-11-22' }] });
    expect(splitWindow({ from: '2026-11-22', to: '2026-11-22' })).toEqual({ days: [{ from: '2026-11-22', to: '2026-11-22' }] });
  });

  it('windows are the last N UTC days including today', () => {
    const w = dayWindow(365, new Date('2026-11-22T23:59:59Z'));
    expect([w.window, w.days.length, w.days[0], w.days[364]]).toEqual([{ from: '2025-11-23', to: '2026-11-22' }, 365, '2025-11-23', '2026-11-22']);
  });
});
