import { Tier } from '@dl/platform/db';
import { kpi } from './report-math';
import { ReportConversionRevenueDto, ReportConversionsDto } from './report-response.dto';
import { ConversionReportRow } from './report-data.repository';

const TOP_LINKS_PER_CURRENCY = 5;

/**
 * The report's conversions section from the rollup groups of both windows: null on the FREE plan
 * or when the organization never recorded a conversion (decisions: reports). Revenue stays per
 * currency; top links are ranked within each currency; unattributed conversions count in the
 * totals but name no link.
 */
export function conversionsSection(
  tier: Tier,
  data: { any: boolean; rows: ConversionReportRow[] },
  shortBase: string,
): ReportConversionsDto | null {
  if (tier === Tier.FREE || !data.any) return null;
  const total = (current: boolean, field: 'leads' | 'sales') =>
    data.rows.filter((r) => r.current === current).reduce((n, r) => n + r[field], 0);
  const byCurrency = new Map<string, ReportConversionRevenueDto>();
  for (const r of data.rows) {
    if (!r.currency) continue;
    const c = byCurrency.get(r.currency) ?? { currency: r.currency, sales: 0, amount: 0, refunded: 0, net: 0, prior: 0, topLinks: [] };
    if (r.current) {
      c.sales += r.sales;
      c.amount += r.amount;
      c.refunded += r.refunded;
      c.net += r.amount - r.refunded;
      if (r.linkId && r.shortCode) {
        c.topLinks.push({ label: r.title || r.shortCode, sublabel: `${shortBase}/${r.shortCode}`, sales: r.sales, net: r.amount - r.refunded });
      }
    } else {
      c.prior += r.amount - r.refunded;
    }
    byCurrency.set(r.currency, c);
  }
  const revenue = [...byCurrency.values()].filter((c) => c.sales > 0 || c.prior !== 0);
  for (const c of revenue) {
    c.topLinks = c.topLinks
      .filter((l) => l.sales > 0)
      .sort((a, b) => b.net - a.net || b.sales - a.sales || a.sublabel.localeCompare(b.sublabel))
      .slice(0, TOP_LINKS_PER_CURRENCY);
  }
  revenue.sort((a, b) => b.sales - a.sales || a.currency.localeCompare(b.currency));
  return {
    leads: kpi(total(true, 'leads'), total(false, 'leads')),
    sales: kpi(total(true, 'sales'), total(false, 'sales')),
    revenue,
  };
}
