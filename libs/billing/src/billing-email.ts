import { Tier } from '@dl/platform/db';
import { EMAIL_ACCENT as ACCENT, emailCard, escapeHtml, emailDay, RenderedEmail } from '@dl/platform/mail';

/*
 * The billing emails to Owners, in the look of the monthly report email (the same card,
 * accent bar, type and footer), as HTML and text.
 */

export type BillingEmail = RenderedEmail;

const WARN = '#b45309';

const esc = escapeHtml;

const day = emailDay;

function page(opts: { kicker: string; title: string; paragraphs: string[]; button: { label: string; url: string }; organization: string; accent: string }): string {
  return emailCard({
    kicker: `${opts.kicker} · ${opts.organization}`,
    title: opts.title,
    paragraphs: opts.paragraphs,
    button: opts.button,
    footer: `You receive this email as an owner of ${opts.organization}. Payments are handled by Stripe; we never see your card.`,
    accent: opts.accent,
  });
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
