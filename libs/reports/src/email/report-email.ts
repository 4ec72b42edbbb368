import { EMAIL_ACCENT as ACCENT, EMAIL_FONT as FONT, EMAIL_INK as INK, EMAIL_LINE as LINE, EMAIL_MUTED as MUTED, escapeHtml, RenderedEmail } from '@dl/platform/mail';
import { formatMinorMoney, formatMoney, formatNumber, formatPct } from '../report-math';
import { ReportConversionsDto, ReportKpiDto, MonthlyReportDto, ReportShareDto, ReportTopLinkDto } from '../report-response.dto';

export const CHART_CID = 'daily-clicks-chart@reports';

export type { RenderedEmail };

const esc = escapeHtml;

function delta(k: ReportKpiDto | null): string {
  if (!k || k.deltaPct === null) return `<span style="color:${MUTED};">no prior data</span>`;
  const up = k.deltaPct >= 0;
  const colour = k.deltaPct === 0 ? MUTED : up ? '#047857' : '#b91c1c';
  const bg = k.deltaPct === 0 ? '#f3f4f6' : up ? '#d1fae5' : '#fee2e2';
  return `<span style="display:inline-block;padding:2px 8px;border-radius:999px;background:${bg};color:${colour};font-size:12px;font-weight:600;">${up ? '▲' : '▼'} ${Math.abs(k.deltaPct)}%</span>`;
}

function kpiCell(title: string, k: ReportKpiDto | null, note: string): string {
  const value = k ? formatNumber(k.value) : '—';
  const sub = k ? delta(k) : `<span style="color:${MUTED};font-size:12px;">${esc(note)}</span>`;
  return `<td width="25%" valign="top" style="padding:6px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border:1px solid ${LINE};border-radius:10px;background:#fafafa;">
<tr><td style="padding:14px 14px 12px;font-family:${FONT};">
<div style="font-size:12px;color:${MUTED};text-transform:uppercase;letter-spacing:.04em;">${esc(title)}</div>
<div style="font-size:24px;font-weight:700;color:${INK};padding:4px 0 6px;">${value}</div>
<div style="font-size:12px;">${sub}</div>
</td></tr></table></td>`;
}

function heading(text: string): string {
  return `<tr><td style="padding:26px 28px 8px;font-family:${FONT};font-size:16px;font-weight:700;color:${INK};">${esc(text)}</td></tr>`;
}

/** "A/B: variant 1 60% (120) · variant 2 40% (80)" and "Rules: rule 1 … · no rule …" of a top link (decisions §16). */
export function controlLines(l: ReportTopLinkDto): string[] {
  const out: string[] = [];
  const part = (name: string, clicks: number, share: number) => `${name} ${formatPct(share)} (${formatNumber(clicks)})`;
  if (l.variants?.length) out.push(`A/B: ${l.variants.map((v) => part(`variant ${v.variant + 1}${v.url === null ? ' (removed)' : ''}`, v.clicks, v.share)).join(' · ')}`);
  if (l.rules?.length) out.push(`Rules: ${l.rules.map((x) => part(x.rule === null ? 'no rule' : `rule ${x.rule + 1}`, x.clicks, x.share)).join(' · ')}`);
  return out;
}

function shareRows(rows: Array<ReportShareDto & { sublabel?: string }>, empty: string): string {
  if (!rows.length) {
    return `<tr><td style="padding:4px 28px 8px;font-family:${FONT};font-size:14px;color:${MUTED};">${esc(empty)}</td></tr>`;
  }
  const body = rows
    .map((r) => {
      const pct = Math.max(1, Math.round(r.share * 100));
      const sub = r.sublabel
        ? `<div style="font-size:12px;color:${MUTED};padding-top:2px;">${r.sublabel.split('\n').map(esc).join('<br>')}</div>`
        : '';
      return `<tr>
<td width="80%" style="padding:7px 0;border-bottom:1px solid ${LINE};font-family:${FONT};font-size:14px;color:${INK};">${esc(r.label)}${sub}
<table role="presentation" cellpadding="0" cellspacing="0" width="100%" style="margin-top:6px;"><tr>
<td width="${pct}%" style="background:${ACCENT};height:4px;line-height:4px;font-size:0;border-radius:2px;">&nbsp;</td>
<td width="${100 - pct}%" style="background:#eef2ff;height:4px;line-height:4px;font-size:0;">&nbsp;</td></tr></table></td>
<td width="20%" align="right" valign="top" style="padding:7px 0 7px 16px;border-bottom:1px solid ${LINE};font-family:${FONT};font-size:14px;color:${INK};white-space:nowrap;"><strong>${formatNumber(r.value)}</strong>
<div style="font-size:12px;color:${MUTED};padding-top:2px;">${formatPct(r.share)}</div></td></tr>`;
    })
    .join('\n');
  return `<tr><td style="padding:0 28px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${body}</table></td></tr>`;
}

function paragraph(html: string, style = ''): string {
  return `<tr><td style="padding:4px 28px;font-family:${FONT};font-size:14px;line-height:1.55;color:${INK};${style}">${html}</td></tr>`;
}

function bullets(items: string[]): string {
  return items.map((i) => paragraph(`<span style="color:${ACCENT};">●</span>&nbsp; ${esc(i)}`)).join('\n');
}

/** The conversions section: leads and sales with their change, then each currency's net revenue and its top links. */
function conversionParts(c: ReportConversionsDto): string[] {
  const out = [heading('Conversions')];
  out.push(paragraph(`<strong>${formatNumber(c.leads.value)}</strong> leads ${delta(c.leads)} &nbsp;·&nbsp; <strong>${formatNumber(c.sales.value)}</strong> sales ${delta(c.sales)}`));
  if (!c.revenue.length) out.push(paragraph('No sales this month.', `color:${MUTED};`));
  for (const rev of c.revenue) {
    const money = (n: number) => esc(formatMinorMoney(n, rev.currency));
    out.push(paragraph(`Revenue <strong>${money(rev.net)}</strong> net · ${formatNumber(rev.sales)} sales${rev.refunded ? ` · ${money(rev.refunded)} refunded` : ''} <span style="color:${MUTED};">(prior ${money(rev.prior)})</span>`, 'padding-top:10px;'));
    const rows = rev.topLinks
      .map((l) => `<tr><td style="padding:7px 0;border-bottom:1px solid ${LINE};font-family:${FONT};font-size:14px;color:${INK};">${esc(l.label)}
<div style="font-size:12px;color:${MUTED};padding-top:2px;">${esc(l.sublabel)}</div></td>
<td align="right" valign="top" style="padding:7px 0 7px 16px;border-bottom:1px solid ${LINE};font-family:${FONT};font-size:14px;color:${INK};white-space:nowrap;"><strong>${money(l.net)}</strong>
<div style="font-size:12px;color:${MUTED};padding-top:2px;">${formatNumber(l.sales)} sales</div></td></tr>`)
      .join('\n');
    if (rows) out.push(`<tr><td style="padding:0 28px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">${rows}</table></td></tr>`);
  }
  return out;
}

/** The HTML (inline styles, table layout for Outlook/Gmail) and plain-text parts of a monthly report email. */
export function renderReportEmail(r: MonthlyReportDto, opts: { dashboardUrl?: string } = {}): RenderedEmail {
  const subject = `${r.organization.name}: your ${r.period.label} report`;
  const days = r.daily;
  const first = days[0]?.day ?? '';
  const last = days[days.length - 1]?.day ?? '';
  const max = Math.max(0, ...days.map((d) => d.clicks));
  const fmtDay = (d: string) =>
    d ? new Date(`${d}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }) : '';

  const parts: string[] = [];
  parts.push(`<tr><td style="padding:28px 28px 6px;font-family:${FONT};">
<div style="font-size:12px;color:${MUTED};text-transform:uppercase;letter-spacing:.08em;">Monthly report · ${esc(r.organization.name)}</div>
<div style="font-size:26px;font-weight:800;color:${INK};padding-top:6px;">${esc(r.period.label)}</div>
<div style="font-size:15px;color:#374151;padding-top:10px;line-height:1.5;">${esc(r.insights.headline)}</div>
</td></tr>`);
  parts.push(`<tr><td style="padding:12px 22px 4px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
${kpiCell('Clicks', r.kpis.clicks, '')}
${kpiCell('Visitors', r.kpis.uniques, 'beyond plan history')}
${kpiCell('Installs', r.kpis.installs, 'add the mobile SDK')}
${kpiCell('Sessions', r.kpis.sessions, 'add the mobile SDK')}
</tr></table></td></tr>`);
  parts.push(heading('Daily clicks'));
  parts.push(`<tr><td style="padding:4px 28px 0;"><img src="cid:${CHART_CID}" width="544" height="155" alt="Daily clicks, ${esc(fmtDay(first))} to ${esc(fmtDay(last))}, peak ${formatNumber(max)}" style="display:block;width:100%;max-width:544px;height:auto;border:0;"></td></tr>`);
  parts.push(`<tr><td style="padding:4px 28px 0;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr>
<td style="font-family:${FONT};font-size:12px;color:${MUTED};">${esc(fmtDay(first))}</td>
<td align="center" style="font-family:${FONT};font-size:12px;color:${MUTED};">${r.bestDay ? `Best day <strong style="color:#047857;">${esc(fmtDay(r.bestDay.day))}</strong> · ${formatNumber(r.bestDay.clicks)} clicks` : 'No clicks this month'}</td>
<td align="right" style="font-family:${FONT};font-size:12px;color:${MUTED};">${esc(fmtDay(last))}</td></tr></table></td></tr>`);

  const insights = [...r.insights.links, ...r.insights.events];
  if (insights.length) {
    parts.push(heading('Highlights'));
    parts.push(bullets(insights));
  }
  if (r.insights.actions.length) {
    parts.push(heading('Suggested next steps'));
    for (const a of r.insights.actions) {
      parts.push(`<tr><td style="padding:6px 28px;"><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-left:3px solid ${ACCENT};background:#f5f7ff;border-radius:6px;"><tr><td style="padding:10px 14px;font-family:${FONT};">
<div style="font-size:14px;font-weight:700;color:${INK};">${esc(a.title)}</div>
<div style="font-size:13px;color:#374151;padding-top:3px;line-height:1.5;">${esc(a.body)}</div></td></tr></table></td></tr>`);
    }
  }
  parts.push(heading('Top links'));
  parts.push(shareRows(r.topLinks.map((l) => ({ ...l, sublabel: [l.sublabel, ...controlLines(l)].join('\n') })), 'No link was clicked this month.'));
  if (r.otherLinks.count > 0) {
    parts.push(paragraph(`+ ${formatNumber(r.otherLinks.count)} other links with ${formatNumber(r.otherLinks.clicks)} clicks`, `color:${MUTED};font-size:13px;padding-top:8px;`));
  }
  parts.push(heading('Where clicks came from'));
  parts.push(shareRows(r.sources.slice(0, 5), 'No clicks yet.'));
  parts.push(heading('Countries'));
  parts.push(shareRows(r.countries.slice(0, 5), 'No clicks yet.'));
  parts.push(heading('Devices'));
  parts.push(shareRows(r.devices, 'No clicks yet.'));

  if (r.installs && r.kpis.installs) {
    parts.push(heading('App installs'));
    parts.push(paragraph(`${formatNumber(r.kpis.installs.value)} installs, <strong>${formatNumber(r.installs.attributed)}</strong> attributed to a link (${formatPct(r.installs.attributionRate)}).`));
    parts.push(shareRows(r.installs.byPlatform, 'No installs this month.'));
  }
  if (r.events) {
    parts.push(heading('In-app events'));
    parts.push(paragraph(`${formatNumber(r.events.total.value)} events · ${formatNumber(r.events.conversions)} conversions${r.events.perInstall !== null ? ` · ${r.events.perInstall} per install` : ''}`));
    for (const rev of r.events.revenue) {
      parts.push(paragraph(`Revenue <strong>${esc(formatMoney(rev.amount, rev.currency))}</strong> <span style="color:${MUTED};">(prior ${esc(formatMoney(rev.prior, rev.currency))})</span>`));
    }
    parts.push(shareRows(r.events.byName, 'No events this month.'));
  }
  if (r.pixel) {
    parts.push(heading('Website'));
    parts.push(paragraph(`${formatNumber(r.pixel.pageviews.value)} pageviews · ${formatNumber(r.pixel.conversions.value)} conversions (${formatPct(r.pixel.conversionRate)})`));
  }

  if (r.conversions) parts.push(...conversionParts(r.conversions));

  const hk = r.housekeeping;
  parts.push(heading('Housekeeping'));
  parts.push(paragraph(`${formatNumber(hk.linksCreated.length)} links created · ${formatNumber(hk.linksExpired.length)} expired · ${formatNumber(hk.linksDisabled)} disabled · ${formatNumber(hk.linksWithStoreUrls)} with app store URLs`, `color:#374151;font-size:13px;`));
  if (opts.dashboardUrl) {
    parts.push(`<tr><td style="padding:22px 28px 4px;"><a href="${esc(opts.dashboardUrl)}" style="display:inline-block;background:${ACCENT};color:#ffffff;text-decoration:none;font-family:${FONT};font-size:14px;font-weight:600;padding:11px 20px;border-radius:8px;">Open the full report</a></td></tr>`);
  }

  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${esc(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="display:none;max-height:0;overflow:hidden;">${esc(r.insights.headline)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:14px;border:1px solid ${LINE};">
<tr><td style="height:6px;line-height:6px;font-size:0;background:${ACCENT};border-radius:14px 14px 0 0;">&nbsp;</td></tr>
${parts.join('\n')}
<tr><td style="padding:26px 28px 28px;font-family:${FONT};font-size:12px;color:${MUTED};line-height:1.5;">You receive this email as an owner or admin of ${esc(r.organization.name)}. Figures exclude bot traffic. Months are UTC calendar months.</td></tr>
</table></td></tr></table></body></html>`;

  return { subject, html, text: renderText(r, opts) };
}

function renderText(r: MonthlyReportDto, opts: { dashboardUrl?: string }): string {
  const lines: string[] = [];
  const k = (name: string, v: ReportKpiDto | null) =>
    `${name}: ${v ? `${formatNumber(v.value)}${v.deltaPct === null ? '' : ` (${v.deltaPct >= 0 ? '+' : ''}${v.deltaPct}%)`}` : 'n/a'}`;
  const list = (title: string, rows: Array<ReportShareDto & { sublabel?: string }>) => {
    if (!rows.length) return;
    lines.push('', title);
    for (const row of rows) {
      lines.push(`  - ${row.label}${row.sublabel ? ` (${row.sublabel})` : ''}: ${formatNumber(row.value)} (${formatPct(row.share)})`);
    }
  };
  lines.push(`${r.organization.name} · ${r.period.label} report`, '', r.insights.headline, '');
  lines.push(k('Clicks', r.kpis.clicks), k('Unique visitors', r.kpis.uniques), k('Installs', r.kpis.installs), k('Sessions', r.kpis.sessions));
  if (r.bestDay) lines.push(`Best day: ${r.bestDay.day} (${formatNumber(r.bestDay.clicks)} clicks)`);
  list('Top links', r.topLinks);
  for (const l of r.topLinks) {
    const more = controlLines(l);
    if (more.length) lines.push(`    ${l.label}: ${more.join('; ')}`);
  }
  if (r.otherLinks.count) lines.push(`  + ${formatNumber(r.otherLinks.count)} other links: ${formatNumber(r.otherLinks.clicks)} clicks`);
  list('Sources', r.sources.slice(0, 5));
  list('Countries', r.countries.slice(0, 5));
  list('Devices', r.devices);
  if (r.installs) list(`Installs (${formatPct(r.installs.attributionRate)} attributed)`, r.installs.byPlatform);
  if (r.events) {
    list(`Events (${formatNumber(r.events.total.value)})`, r.events.byName);
    for (const rev of r.events.revenue) lines.push(`  Revenue: ${formatMoney(rev.amount, rev.currency)} (prior ${formatMoney(rev.prior, rev.currency)})`);
  }
  if (r.conversions) {
    const c = r.conversions;
    lines.push('', 'Conversions', `  ${k('Leads', c.leads)} · ${k('Sales', c.sales)}`);
    for (const rev of c.revenue) {
      const money = (n: number) => formatMinorMoney(n, rev.currency);
      lines.push(`  Revenue ${rev.currency}: ${money(rev.net)} net, ${money(rev.refunded)} refunded (prior ${money(rev.prior)})`);
      for (const l of rev.topLinks) lines.push(`    - ${l.label} (${l.sublabel}): ${money(l.net)}, ${formatNumber(l.sales)} sales`);
    }
  }
  const notes = [...r.insights.links, ...r.insights.events];
  if (notes.length) lines.push('', 'Highlights', ...notes.map((n) => `  - ${n}`));
  if (r.insights.actions.length) lines.push('', 'Suggested next steps', ...r.insights.actions.map((a) => `  - ${a.title}: ${a.body}`));
  const hk = r.housekeeping;
  lines.push('', `Housekeeping: ${hk.linksCreated.length} links created, ${hk.linksExpired.length} expired, ${hk.linksDisabled} disabled, ${hk.linksWithStoreUrls} with app store URLs.`);
  if (opts.dashboardUrl) lines.push('', `Full report: ${opts.dashboardUrl}`);
  return `${lines.join('\n')}\n`;
}
