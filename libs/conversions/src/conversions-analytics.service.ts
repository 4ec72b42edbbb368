import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { csvLine, ValidationError } from '@dl/platform/http';
import { NO_LINK } from './conversion.records';
import { ConversionAggregate, ConversionFilter, ConversionsReadRepository } from './conversions-read.repository';
import { ConversionGroup, ConversionsQueryDto, DEFAULT_CONVERSION_DAYS, MAX_CONVERSION_DAYS } from './conversions-query.dto';
import { ConversionRowDto, ConversionsSummaryDto, CurrencyNetDto, CurrencyRevenueDto, LinkConversionsDto } from './conversions-response.dto';

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);
const EXPORT_PAGE = 2000;
export const CONVERSIONS_CSV_HEADER = 'type,id,createdAt,customerExternalId,linkId,shortCode,eventName,amount,refunded,currency,invoiceId,source';

/** `days` (default 30) or `from`/`to`: the window's first and last UTC day (400 naming the field otherwise). */
export function conversionWindow(q: Pick<ConversionsQueryDto, 'days' | 'from' | 'to'>, now = new Date()): { from: string; to: string } {
  if (q.from || q.to) {
    if (!q.from || !q.to) throw new ValidationError({ [q.from ? 'to' : 'from']: 'Required with from/to' });
    if (q.from > q.to) throw new ValidationError({ from: 'Must not be after to' });
    if ((Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1 > MAX_CONVERSION_DAYS) throw new ValidationError({ to: `The window must be at most ${MAX_CONVERSION_DAYS} days` });
    return { from: q.from, to: q.to };
  }
  const to = utcDay(now);
  return { from: utcDay(new Date(Date.parse(to) - ((q.days ?? DEFAULT_CONVERSION_DAYS) - 1) * DAY_MS)), to };
}

const rate = (n: number, d: number) => (d > 0 ? Math.min(1, n / d) : null);

/** Sums per currency (never across currencies), largest net first. */
function byCurrency(aggregates: ConversionAggregate[]): CurrencyRevenueDto[] {
  const map = new Map<string, CurrencyRevenueDto>();
  for (const a of aggregates) {
    if (!a.currency || !a.sales) continue;
    const e = map.get(a.currency) ?? { currency: a.currency, amount: 0, refunded: 0, net: 0 };
    e.amount += a.amount;
    e.refunded += a.refunded;
    e.net = e.amount - e.refunded;
    map.set(a.currency, e);
  }
  return [...map.values()].sort((x, y) => y.net - x.net || x.currency.localeCompare(y.currency));
}
const nets = (r: CurrencyRevenueDto[]): CurrencyNetDto[] => r.map(({ currency, net }) => ({ currency, net }));

/** Conversion analytics (decisions §23): funnel, revenue by currency, rows by group. */
@Injectable()
export class ConversionsAnalyticsService {
  constructor(
    private readonly repo: ConversionsReadRepository,
    private readonly audit: AuditSink,
  ) {}

  filter(q: ConversionsQueryDto, now = new Date()): ConversionFilter {
    return { ...conversionWindow(q, now), linkId: q.linkId, projectId: q.projectId, tag: q.tag, utmCampaign: q.utmCampaign };
  }

  async summary(organizationId: string, q: ConversionsQueryDto, now = new Date()): Promise<ConversionsSummaryDto> {
    const f = this.filter(q, now);
    const group: ConversionGroup = q.groupBy ?? 'day';
    const [aggregates, clicks, customers] = await Promise.all([
      this.repo.aggregate(organizationId, f, group),
      group === 'source' ? Promise.resolve(null) : this.repo.clicks(organizationId, f, group),
      this.repo.customers(organizationId, f),
    ]);
    const totalClicks = clicks ? [...clicks.values()].reduce((a, b) => a + b, 0) : (await this.repo.clicks(organizationId, f, null)).get('') ?? 0;
    const leads = aggregates.reduce((a, r) => a + r.leads, 0);
    const sales = aggregates.reduce((a, r) => a + r.sales, 0);
    return {
      clicks: totalClicks,
      leads,
      sales,
      customers: customers.customers,
      revenue: byCurrency(aggregates),
      clickToLead: rate(customers.customers, totalClicks),
      leadToSale: rate(customers.paying, customers.customers),
      rows: await this.rows(organizationId, group, aggregates, clicks),
    };
  }

  /** Leads, sales and net revenue of one link over the window of its analytics (link analytics). */
  async forLink(organizationId: string, linkId: string, window: { days?: number; from?: string; to?: string }, now = new Date()): Promise<LinkConversionsDto> {
    const { from, to } = conversionWindow(window, now);
    const aggregates = await this.repo.linkTotals(organizationId, linkId, from, to);
    return {
      leads: aggregates.reduce((a, r) => a + r.leads, 0),
      sales: aggregates.reduce((a, r) => a + r.sales, 0),
      revenue: nets(byCurrency(aggregates)),
    };
  }

  /** The window's leads and sales as CSV, streamed page by page. */
  export(organizationId: string, q: ConversionsQueryDto, now = new Date()): Readable {
    const f = this.filter(q, now);
    this.audit.record({ organizationId, action: 'export.created', changes: { kind: 'conversions', ...q } });
    const repo = this.repo;
    async function* lines(): AsyncGenerator<string> {
      yield `${CONVERSIONS_CSV_HEADER}\n`;
      let after: { createdAt: Date; id: string } | null = null;
      for (;;) {
        const page = await repo.exportPage(organizationId, f, after, EXPORT_PAGE);
        if (!page.length) return;
        yield page
          .map((r) =>
            csvLine([r.type, r.id, r.createdAt.toISOString(), r.customerExternalId, r.linkId, r.shortCode, r.eventName, r.amount, r.refunded, r.currency, r.invoiceId, r.source]),
          )
          .join('\n') + '\n';
        if (page.length < EXPORT_PAGE) return;
        const last = page[page.length - 1];
        after = { createdAt: last.createdAt, id: last.id };
      }
    }
    return Readable.from(lines());
  }

  private async rows(
    organizationId: string,
    group: ConversionGroup,
    aggregates: ConversionAggregate[],
    clicks: Map<string, number> | null,
  ): Promise<ConversionRowDto[]> {
    const keys = new Set<string>([...aggregates.map((a) => a.key), ...(clicks ? clicks.keys() : [])]);
    const labels = group === 'link' ? await this.repo.linkLabels(organizationId, [...keys]) : null;
    const rows = [...keys].map((key): ConversionRowDto => {
      const mine = aggregates.filter((a) => a.key === key);
      const label =
        group === 'link' ? (key === NO_LINK ? 'No link' : (labels!.get(key)?.title ?? labels!.get(key)?.shortCode ?? key)) : key || (group === 'country' ? 'Unknown' : group === 'campaign' ? 'No campaign' : key);
      return {
        key,
        label,
        clicks: clicks ? (clicks.get(key) ?? 0) : null,
        leads: mine.reduce((a, r) => a + r.leads, 0),
        sales: mine.reduce((a, r) => a + r.sales, 0),
        revenue: nets(byCurrency(mine)),
      };
    });
    if (group === 'day') return rows.sort((a, b) => a.key.localeCompare(b.key));
    return rows.sort((a, b) => b.sales - a.sales || b.leads - a.leads || (b.clicks ?? 0) - (a.clicks ?? 0) || a.key.localeCompare(b.key));
  }
}
