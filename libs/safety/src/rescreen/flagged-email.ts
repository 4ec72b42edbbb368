import { emailCard, escapeHtml as esc, RenderedEmail } from '@dl/platform/mail';

const DANGER = '#b91c1c';
/** Links named one by one; the rest are counted. */
const LISTED = 20;

export interface FlaggedLinkLine {
  shortUrl: string;
  reason: string;
}

/**
 * "Links blocked" to an organization's Owners and Admins (decisions §22): re-screening found their
 * destinations in a threat feed, so they answer the disabled page now. Says so when the
 * organization was suspended pending review by the same pass.
 */
export function renderFlaggedLinksEmail(m: { organization: string; links: FlaggedLinkLine[]; suspended: boolean; linksUrl: string }): RenderedEmail {
  const n = m.links.length;
  const subject = n === 1 ? `A link of ${m.organization} was blocked: ${m.links[0].reason}` : `${n} links of ${m.organization} were blocked`;
  const shown = m.links.slice(0, LISTED);
  const more = n - shown.length;
  const intro = `${n === 1 ? 'A destination of this link is' : 'Destinations of these links are'} now on a threat list (a threat feed or Google Safe Browsing), so visitors get a page saying the link has been disabled.`;
  const fix = 'If a destination is wrong, point the link somewhere safe: changing its destinations screens it again.';
  const suspension = 'Your organization has been suspended pending review: several links were blocked within 24 hours. Contact support to have it reviewed.';
  const paragraphs = [
    esc(intro),
    `<ul style="margin:4px 0;padding-left:18px;">${shown.map((l) => `<li><span style="font-family:monospace;">${esc(l.shortUrl)}</span> &mdash; ${esc(l.reason)}</li>`).join('')}</ul>`,
    ...(more > 0 ? [esc(`and ${more} more.`)] : []),
    esc(fix),
    ...(m.suspended ? [`<span style="color:${DANGER};font-weight:600;">${esc(suspension)}</span>`] : []),
  ];
  const text = [
    subject,
    '',
    intro,
    ...shown.map((l) => `- ${l.shortUrl}: ${l.reason}`),
    ...(more > 0 ? [`and ${more} more.`] : []),
    '',
    fix,
    ...(m.suspended ? ['', suspension] : []),
    '',
    `Your links: ${m.linksUrl}`,
  ].join('\n');
  const html = emailCard({
    kicker: `Trust and safety · ${m.organization}`,
    title: n === 1 ? 'A link was blocked' : `${n} links were blocked`,
    paragraphs,
    button: { label: 'Review your links', url: m.linksUrl },
    footer: `You receive this email as an owner or admin of ${m.organization}.`,
    accent: DANGER,
  });
  return { subject, html, text: `${text}\n` };
}
