/** Minor units (what the API answers) → a formatted amount in the viewer's locale: 4900 USD → "$49.00". */
export function fmtMoney(minor: number, currency: string): string {
  const format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** Net revenue per currency on one line ("$45.00 · €20.00"); never summed across currencies. */
export function fmtRevenue(revenue: Array<{ currency: string; net: number }>): string {
  return revenue.length ? revenue.map((r) => fmtMoney(r.net, r.currency)).join(' · ') : '—';
}
