/** A UTC calendar month, e.g. 2026-11. */
export interface Period {
  year: number;
  /** 1..12 */
  month: number;
}

const PERIOD_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;
const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
];
const DAY_MS = 86_400_000;

export function parsePeriod(value: string): Period | null {
  const m = PERIOD_RE.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  if (year < 1970) return null;
  return { year, month: Number(m[2]) };
}

export function formatPeriod(p: Period): string {
  return `${p.year}-${String(p.month).padStart(2, '0')}`;
}

export function periodOf(date: Date): Period {
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
}

export function addMonths(p: Period, n: number): Period {
  const idx = p.year * 12 + (p.month - 1) + n;
  return { year: Math.floor(idx / 12), month: (idx % 12) + 1 };
}

export function comparePeriods(a: Period, b: Period): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

/** First instant of the month (UTC). */
export function periodStart(p: Period): Date {
  return new Date(Date.UTC(p.year, p.month - 1, 1));
}

/** First instant of the next month (exclusive end). */
export function periodEnd(p: Period): Date {
  return new Date(Date.UTC(p.year, p.month, 1));
}

export function periodLabel(p: Period): string {
  return `${MONTHS[p.month - 1]} ${p.year}`;
}

export function daysInPeriod(p: Period): number {
  return Math.round((periodEnd(p).getTime() - periodStart(p).getTime()) / DAY_MS);
}

/** YYYY-MM-DD of a UTC date. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(d: Date, n: number): Date {
  return new Date(d.getTime() + n * DAY_MS);
}

/** Start of the UTC day of `d`. */
export function startOfDay(d: Date): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
}

export { DAY_MS };
