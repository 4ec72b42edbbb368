/**
 * The look every email shares (the monthly report's): system font, ink and muted text, hairlines,
 * the indigo accent. HTML emails inline their styles, so these are strings, not a stylesheet.
 */
export const EMAIL_FONT = `-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif`;
export const EMAIL_INK = '#111827';
export const EMAIL_MUTED = '#6b7280';
export const EMAIL_LINE = '#e5e7eb';
export const EMAIL_ACCENT = '#4f46e5';

/** An email as the mailer sends it. */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** A date as the emails write it: "March 4, 2027" (UTC). */
export const emailDay = (d: Date): string => d.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * The card every account-level email uses: accent bar, kicker and title, HTML paragraphs, one
 * button and a footer line. Paragraphs are HTML (callers escape what they interpolate); the rest is text.
 */
export function emailCard(c: { kicker: string; title: string; paragraphs: string[]; button: { label: string; url: string }; footer: string; accent?: string }): string {
  const rows = c.paragraphs.map((p) => `<tr><td style="padding:4px 28px;font-family:${EMAIL_FONT};font-size:14px;line-height:1.55;color:${EMAIL_INK};">${p}</td></tr>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(c.title)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:14px;border:1px solid ${EMAIL_LINE};">
<tr><td style="height:6px;line-height:6px;font-size:0;background:${c.accent ?? EMAIL_ACCENT};border-radius:14px 14px 0 0;">&nbsp;</td></tr>
<tr><td style="padding:28px 28px 10px;font-family:${EMAIL_FONT};">
<div style="font-size:12px;color:${EMAIL_MUTED};text-transform:uppercase;letter-spacing:.08em;">${escapeHtml(c.kicker)}</div>
<div style="font-size:24px;font-weight:800;color:${EMAIL_INK};padding-top:6px;">${escapeHtml(c.title)}</div></td></tr>
${rows}
<tr><td style="padding:22px 28px 4px;"><a href="${escapeHtml(c.button.url)}" style="display:inline-block;background:${EMAIL_ACCENT};color:#ffffff;text-decoration:none;font-family:${EMAIL_FONT};font-size:14px;font-weight:600;padding:11px 20px;border-radius:8px;">${escapeHtml(c.button.label)}</a></td></tr>
<tr><td style="padding:26px 28px 28px;font-family:${EMAIL_FONT};font-size:12px;color:${EMAIL_MUTED};line-height:1.5;">${escapeHtml(c.footer)}</td></tr>
</table></td></tr></table></body></html>`;
}
