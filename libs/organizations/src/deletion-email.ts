import { EMAIL_ACCENT as ACCENT, EMAIL_FONT as FONT, EMAIL_INK as INK, EMAIL_LINE as LINE, EMAIL_MUTED as MUTED, escapeHtml, emailDay, RenderedEmail } from '@dl/platform/mail';
/*
 * The "deletion scheduled" email to the organization's Owners, in the look of the monthly
 * report email (the same card, accent bar, type and footer), as HTML and text.
 */

export type DeletionEmail = RenderedEmail;

const DANGER = '#b91c1c';

const esc = escapeHtml;

const day = emailDay;

/** Deletion asked for by `requestedBy`: everything goes on `deletionAt` unless an Owner restores it before. */
export function renderDeletionScheduledEmail(m: { organization: string; requestedBy: string; deletionAt: Date; settingsUrl: string }): DeletionEmail {
  const when = day(m.deletionAt);
  const subject = `${m.organization} will be deleted on ${when}`;
  const lines = [
    `${m.requestedBy} asked to delete the organization ${m.organization}.`,
    `From now on its links answer "not found", and its API keys and dashboard sessions are refused.`,
    `On ${when} every link, click, report, webhook, domain, member and key of it is deleted for good.`,
    `Until then an owner can restore it from the organization settings, and export its data first.`,
  ];
  const paragraphs = [
    `${esc(m.requestedBy)} asked to delete the organization <strong>${esc(m.organization)}</strong>.`,
    'From now on its links answer &ldquo;not found&rdquo;, and its API keys and dashboard sessions are refused.',
    `<span style="color:${DANGER};font-weight:600;">On ${esc(when)} every link, click, report, webhook, domain, member and key of it is deleted for good.</span>`,
    'Until then an owner can restore it from the organization settings, and export its data first. If you did not expect this, restore it now.',
  ];
  const rows = paragraphs
    .map((p) => `<tr><td style="padding:4px 28px;font-family:${FONT};font-size:14px;line-height:1.55;color:${INK};">${p}</td></tr>`)
    .join('\n');
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${esc(subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:14px;border:1px solid ${LINE};">
<tr><td style="height:6px;line-height:6px;font-size:0;background:${DANGER};border-radius:14px 14px 0 0;">&nbsp;</td></tr>
<tr><td style="padding:28px 28px 10px;font-family:${FONT};">
<div style="font-size:12px;color:${MUTED};text-transform:uppercase;letter-spacing:.08em;">Organization · ${esc(m.organization)}</div>
<div style="font-size:24px;font-weight:800;color:${INK};padding-top:6px;">Deletion scheduled for ${esc(when)}</div></td></tr>
${rows}
<tr><td style="padding:22px 28px 4px;"><a href="${esc(m.settingsUrl)}" style="display:inline-block;background:${ACCENT};color:#ffffff;text-decoration:none;font-family:${FONT};font-size:14px;font-weight:600;padding:11px 20px;border-radius:8px;">Restore or export</a></td></tr>
<tr><td style="padding:26px 28px 28px;font-family:${FONT};font-size:12px;color:${MUTED};line-height:1.5;">You receive this email as an owner of ${esc(m.organization)}.</td></tr>
</table></td></tr></table></body></html>`;
  const text = [`${m.organization}: deletion scheduled for ${when}`, '', ...lines, '', `Restore or export: ${m.settingsUrl}`].join('\n');
  return { subject, html, text: `${text}\n` };
}
