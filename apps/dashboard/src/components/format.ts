// Numbers and dates with Intl, in the viewer's locale and time zone.
const number = new Intl.NumberFormat();
const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const date = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });

export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
export const fmtNumber = (n: number | null | undefined) => (n == null ? '—' : number.format(n));
export const fmtCompact = (n: number) => compact.format(n);
export const fmtPercent = (n: number | null | undefined) => (n == null ? '—' : percent.format(n));
export const fmtDate = (iso: string | null | undefined) => (iso ? date.format(new Date(iso)) : '—');
export const fmtDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '—');
/** A UTC calendar day (YYYY-MM-DD from the API) shown as a date, not shifted by the viewer's zone. */
export const fmtDay = (day: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
