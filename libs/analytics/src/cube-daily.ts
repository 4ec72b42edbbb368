/**
 * The daily path's windows (docs/analytics-storage.md, "Daily roll-up"): which day and month rows
 * and which edge hours of the cube a window of whole days in a zone reads.
 */
import { DAY_MS, isoDay, splitWindow } from './analytics.repository';

/** A window of whole days in a time zone: [from 00:00, to + 1 day 00:00) there. */
export interface ZonedWindow {
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** YYYY-MM-DD, inclusive */
  to: string;
  tz: string;
}

/** Whole UTC days, inclusive (YYYY-MM-DD). */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The day-row and month-row ranges the daily roll-up answers a window's lists from: `splitWindow`'s
 * whole months and days around them, and `openMonth`, the first day of `to`'s month when the window
 * holds that day and `to` is not the month's last day: its month row holds the hours rolled so far.
 */
export function dailySplit(w: DayRange): { days: DayRange[]; months?: DayRange; openMonth?: string } {
  const monthStart = `${w.to.slice(0, 8)}01`;
  const monthEnd = isoDay(Date.UTC(Number(w.to.slice(0, 4)), Number(w.to.slice(5, 7)), 0));
  const closed = (range: DayRange) => {
    const split = splitWindow(range);
    return { days: split.days, ...(split.months && { months: { from: split.months.from, to: split.months.to } }) };
  };
  if (w.to === monthEnd || monthStart < w.from) return closed(w);
  if (monthStart === w.from) return { days: [], openMonth: monthStart };
  const before = isoDay(Date.parse(`${monthStart}T00:00:00Z`) - DAY_MS);
  return { ...closed({ from: w.from, to: before }), openMonth: monthStart };
}

/** Zones whose days are UTC days. */
export const UTC_DAY_ZONES = new Set(['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT']);

/**
 * What the daily answer reads for a window: its zone and first local day, the UTC instants it
 * and the previous window start at and it ends at, and the whole UTC days inside it (none for a
 * window shorter than a UTC day and its edges).
 */
export interface DailyBounds {
  tz: string;
  from: string;
  start: Date;
  end: Date;
  previousStart: Date;
  whole?: DayRange;
}

/** The whole UTC days in [start, end), if any. */
export function wholeUtcDays(start: Date, end: Date): DayRange | undefined {
  const first = Math.ceil(start.getTime() / DAY_MS) * DAY_MS;
  const stop = Math.floor(end.getTime() / DAY_MS) * DAY_MS;
  return first < stop ? { from: isoDay(first), to: isoDay(stop - DAY_MS) } : undefined;
}

/** The bounds of a window whose days are UTC days: every day whole. */
export function utcBounds(w: ZonedWindow, previous: ZonedWindow): DailyBounds {
  const at = (day: string) => new Date(`${day}T00:00:00Z`);
  return { tz: w.tz, from: w.from, start: at(w.from), end: new Date(at(w.to).getTime() + DAY_MS), previousStart: at(previous.from), whole: { from: w.from, to: w.to } };
}
