import { ReportCurrencyAmountDto, ReportKpiDto, ReportShareDto } from './report-response.dto';

/** Percentage change rounded to one decimal; null when the prior value is 0 or unknown. */
export function deltaPct(value: number, prior: number | null): number | null {
  if (prior === null || prior === 0) return null;
  return Math.round(((value - prior) / prior) * 1000) / 10;
}

export function kpi(value: number, prior: number | null): ReportKpiDto {
  return { value, prior, deltaPct: deltaPct(value, prior) };
}

/** A fraction 0..1 with 4 decimals; 0 when the total is 0. */
export function fraction(part: number, total: number): number {
  if (!total) return 0;
  return Math.round((part / total) * 10_000) / 10_000;
}

export function shares(rows: Array<{ label: string; value: number }>, total: number, limit: number): ReportShareDto[] {
  return rows.slice(0, limit).map((r) => ({ label: r.label, value: r.value, share: fraction(r.value, total) }));
}

export function round(n: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(n * f) / f;
}

/** Sums amounts per currency across sources, largest first. */
export function mergeCurrencies(...lists: ReportCurrencyAmountDto[][]): ReportCurrencyAmountDto[] {
  const by = new Map<string, ReportCurrencyAmountDto>();
  for (const row of lists.flat()) {
    const cur = by.get(row.currency) ?? { currency: row.currency, amount: 0, prior: 0 };
    cur.amount = round(cur.amount + row.amount, 4);
    cur.prior = round(cur.prior + row.prior, 4);
    by.set(row.currency, cur);
  }
  return [...by.values()].sort((a, b) => b.amount - a.amount || a.currency.localeCompare(b.currency));
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

export function formatPct(fractionValue: number): string {
  return `${round(fractionValue * 100, 1)}%`;
}

export function formatMoney(amount: number, currency: string): string {
  try {
    return amount.toLocaleString('en-US', { style: 'currency', currency });
  } catch {
    return `${formatNumber(amount)} ${currency}`;
  }
}

/** An integer amount in the currency's minor units (as conversions store them), formatted. */
export function formatMinorMoney(minor: number, currency: string): string {
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code keeps two digits and is printed after the number by formatMoney.
  }
  return formatMoney(minor / 10 ** digits, currency);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`;
}
