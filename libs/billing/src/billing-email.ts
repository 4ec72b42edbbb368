import { Tier } from '@dl/platform/db';
import { EMAIL_ACCENT as ACCENT, EMAIL_FONT as FONT, EMAIL_INK as INK, EMAIL_LINE as LINE, EMAIL_MUTED as MUTED, escapeHtml, emailDay, RenderedEmail } from '@dl/platform/mail';

/*
 * The billing emails to Owners, in the look of the monthly report email (the same card,
 * accent bar, type and footer), as HTML and text.
 */

export type BillingEmail = RenderedEmail;

const WARN = '#b45309';

const esc = escapeHtml;

const day = emailDay;

function page(opts: { kicker: string; title: string; paragraphs: string[]; button: { label: string; url: string }; organization: string; accent: string }): string {
  const rows = opts.paragraphs
    .map((p) => `<tr><td style="padding:4px 28px;font-family:${FONT};font-size:14px;line-height:1.55;color:${INK};">${p}</td></tr>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${esc(opts.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:14px;border:1px solid ${LINE};">
<tr><td style="height:6px;line-height:6px;font-size:0;background:${opts.accent};border-radius:14px 14px 0 0;">&nbsp;</td></tr>
<tr><td style="padding:28px 28px 10px;font-family:${FONT};">
<div style="font-size:12px;color:${MUTED};text-transform:uppercase;letter-spacing:.08em;">${esc(opts.kicker)} · ${esc(opts.organization)}</div>
<div style="font-size:24px;font-weight:800;color:${INK};padding-top:6px;">${esc(opts.title)}</div></td></tr>
${rows}
<tr><td style="padding:22px 28px 4px;"><a href="${esc(opts.button.url)}" style="display:inline-block;background:${ACCENT};color:#ffffff;text-decoration:none;font-family:${FONT};font-size:14px;font-weight:600;padding:11px 20px;border-radius:8px;">${esc(opts.button.label)}</a></td></tr>
<tr><td style="padding:26px 28px 28px;font-family:${FONT};font-size:12px;color:${MUTED};line-height:1.5;">You receive this email as an owner of ${esc(opts.organization)}. Payments are handled by Stripe; we never see your card.</td></tr>
</table></td></tr></table></body></html>`;
}

/** A renewal payment failed: the plan stays until `graceEndsAt`, then falls to FREE unless paid. */
export function renderPaymentFailedEmail(m: { organization: string; tier: Tier; graceEndsAt: Date; billingUrl: string }): BillingEmail {
  const subject = `Payment failed for ${m.organization}: update your card to keep ${m.tier}`;
  const paragraphs = [
    `We could not charge the card on file for your <strong>${esc(m.tier)}</strong> plan. Stripe will retry the payment over the next days.`,
    `<span style="color:${WARN};font-weight:600;">Your organization keeps ${esc(m.tier)} until ${esc(day(m.graceEndsAt))}.</span> If no payment succeeds by then it moves to the FREE plan: nothing is deleted, links keep working, only creating more than the FREE limits allows is refused.`,
    'Update the payment method in the billing portal to settle the invoice now.',
  ];
  const text = [
    `${m.organization}: payment failed`,
    '',
    `We could not charge the card on file for your ${m.tier} plan. Stripe will retry the payment over the next days.`,
    `Your organization keeps ${m.tier} until ${day(m.graceEndsAt)}. If no payment succeeds by then it moves to the FREE plan: nothing is deleted, links keep working, only creating more than the FREE limits allows is refused.`,
    '',
    `Update the payment method: ${m.billingUrl}`,
  ].join('\n');
  return { subject, text: `${text}\n`, html: page({ kicker: 'Billing', title: 'Your payment failed', paragraphs, button: { label: 'Update payment method', url: m.billingUrl }, organization: m.organization, accent: WARN }) };
}

/** The organization moved to a lower plan (subscription ended, grace over, or a cheaper plan). */
export function renderDowngradeEmail(m: { organization: string; from: Tier; to: Tier; limits: { links: number | null; requestsPerMinute: number }; billingUrl: string }): BillingEmail {
  const subject = `${m.organization} is now on the ${m.to} plan`;
  const links = m.limits.links === null ? 'unlimited links' : `${m.limits.links.toLocaleString('en-US')} links`;
  const paragraphs = [
    `Your organization moved from <strong>${esc(m.from)}</strong> to <strong>${esc(m.to)}</strong>.`,
    `Nothing was deleted: every link keeps redirecting and stays readable and editable. The ${esc(m.to)} plan allows ${esc(links)} and ${m.limits.requestsPerMinute} API requests a minute; above its limits, creating more is refused until you upgrade again.`,
  ];
  const text = [
    `${m.organization} is now on the ${m.to} plan`,
    '',
    `Your organization moved from ${m.from} to ${m.to}.`,
    `Nothing was deleted: every link keeps redirecting and stays readable and editable. The ${m.to} plan allows ${links} and ${m.limits.requestsPerMinute} API requests a minute; above its limits, creating more is refused until you upgrade again.`,
    '',
    `Choose a plan: ${m.billingUrl}`,
  ].join('\n');
  return { subject, text: `${text}\n`, html: page({ kicker: 'Billing', title: `You are now on ${m.to}`, paragraphs, button: { label: 'Choose a plan', url: m.billingUrl }, organization: m.organization, accent: ACCENT }) };
}
