import { formatMoney, formatNumber, formatPct, plural } from './report-math';
import { MonthlyReportDto } from './report-response.dto';

export type InsightInput = Omit<MonthlyReportDto, 'insights' | 'generatedAt'>;
type Action = { title: string; body: string };

function change(delta: number | null, priorLabel: string): string {
  if (delta === null) return '';
  if (delta === 0) return `, level with ${priorLabel}`;
  return delta > 0 ? `, up ${delta}% on ${priorLabel}` : `, down ${Math.abs(delta)}% on ${priorLabel}`;
}

function weekday(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    timeZone: 'UTC',
  });
}

/** Insights from the numbers by fixed rules (no external service): a headline, notes and up to 3 actions. */
export function buildInsights(r: InsightInput): MonthlyReportDto['insights'] {
  const { clicks } = r.kpis;
  const label = r.period.label;
  const headline =
    clicks.value === 0
      ? clicks.prior
        ? `No clicks in ${label}, after ${plural(clicks.prior, 'click')} in ${r.period.priorLabel}.`
        : `No clicks in ${label} yet.`
      : `${plural(clicks.value, 'click')} in ${label}${change(clicks.deltaPct, r.period.priorLabel)}.`;

  const links: string[] = [];
  const top = r.topLinks[0];
  if (top) links.push(`“${top.label}” led with ${plural(top.value, 'click')} (${formatPct(top.share)} of all clicks).`);
  if (r.bestDay) links.push(`Busiest day: ${weekday(r.bestDay.day)} with ${plural(r.bestDay.clicks, 'click')}.`);
  const source = r.sources[0];
  if (source) links.push(`${source.label} was the top source (${formatPct(source.share)} of clicks).`);
  const country = r.countries[0];
  if (country) links.push(`Most visitors came from ${country.label} (${formatPct(country.share)}).`);
  if (r.zeroClickLinks > 0) links.push(`${plural(r.zeroClickLinks, 'link')} had no clicks.`);

  const events: string[] = [];
  if (r.installs && r.kpis.installs) {
    const n = r.kpis.installs.value;
    events.push(
      n === 0
        ? 'No app installs this month.'
        : `${plural(n, 'install')}${change(r.kpis.installs.deltaPct, r.period.priorLabel)}; ${formatPct(r.installs.attributionRate)} attributed to a link.`,
    );
  }
  if (r.events) {
    const t = r.events.total;
    events.push(
      t.value === 0
        ? 'No in-app events or conversions this month.'
        : `${plural(t.value, 'event')} tracked${change(t.deltaPct, r.period.priorLabel)}.`,
    );
    const topEvent = r.events.byName[0];
    if (topEvent) events.push(`Most frequent event: ${topEvent.label} (${formatNumber(topEvent.value)}).`);
    for (const rev of r.events.revenue.slice(0, 3)) {
      if (rev.amount > 0) events.push(`Revenue ${formatMoney(rev.amount, rev.currency)} (${rev.currency}).`);
    }
  }
  if (r.pixel && r.pixel.pageviews.value > 0) {
    events.push(
      `Website: ${plural(r.pixel.pageviews.value, 'pageview')} and ${plural(r.pixel.conversions.value, 'conversion')} (${formatPct(r.pixel.conversionRate)} conversion rate).`,
    );
  }

  return { headline, links, events, actions: buildActions(r).slice(0, 3) };
}

function buildActions(r: InsightInput): Action[] {
  const actions: Action[] = [];
  if (r.zeroClickLinks > 0) {
    actions.push({
      title: 'Review idle links',
      body: `${plural(r.zeroClickLinks, 'link')} had no clicks: archive or promote them.`,
    });
  }
  const drop = r.kpis.clicks.deltaPct;
  if (drop !== null && drop <= -20) {
    actions.push({
      title: 'Win back traffic',
      body: `Clicks fell ${Math.abs(drop)}% on ${r.period.priorLabel}: reshare your top links or refresh campaigns.`,
    });
  }
  if (r.housekeeping.linksExpired.length > 0) {
    actions.push({
      title: 'Renew expired links',
      body: `${plural(r.housekeeping.linksExpired.length, 'link')} expired this month: extend them or point visitors elsewhere.`,
    });
  }
  const direct = r.sources.find((s) => s.label === 'Direct');
  if (direct && direct.share >= 0.5 && r.kpis.clicks.value > 0) {
    actions.push({
      title: 'Tag links with UTM',
      body: `${formatPct(direct.share)} of clicks had no referrer: add utm_source to see where they come from.`,
    });
  }
  if (!r.installs) {
    actions.push({
      title: 'Add the mobile SDK',
      body: 'Track installs, sessions and in-app events to see which links bring users who stay.',
    });
  } else if (r.kpis.installs && r.kpis.installs.value > 0 && r.installs.attributionRate < 0.5) {
    actions.push({
      title: 'Improve install attribution',
      body: `Only ${formatPct(r.installs.attributionRate)} of installs came through a link: add store URLs to your links.`,
    });
  }
  if (!r.pixel) {
    actions.push({
      title: 'Install the website pixel',
      body: 'Measure pageviews and conversions from your links on your own site.',
    });
  }
  return actions;
}
