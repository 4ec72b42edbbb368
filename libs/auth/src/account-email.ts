import { EMAIL_ACCENT as ACCENT, EMAIL_FONT as FONT, EMAIL_INK as INK, EMAIL_LINE as LINE, EMAIL_MUTED as MUTED, escapeHtml, RenderedEmail } from '@dl/platform/mail';
/**
 * The account emails (verification, invitation, password reset): the report email's frame
 * (600 px card, indigo top bar, system font, one call-to-action button) around a few lines.
 * Every caller-supplied string is escaped; names of organizations are text, never links.
 */
export interface AccountEmail {
  subject: string;
  /** Small caps line above the heading. */
  eyebrow: string;
  heading: string;
  /** Plain-text paragraphs (escaped in the HTML). */
  lines: string[];
  action?: { label: string; url: string };
  /** A token or code shown as text, for those who paste it. */
  code?: string;
  footer: string;
}

export type RenderedAccountEmail = RenderedEmail;


const esc = escapeHtml;

/**
 * Mail clients turn anything that looks like a domain into a link; a zero-width joiner after each
 * dot keeps an organization's name ("pay.example") plain text (decisions §20: never a link).
 */
export function unlinkable(s: string): string {
  return s.replace(/\./g, '.\u200c').replace(/:\/\//g, ':\u200c//');
}

export function renderAccountEmail(e: AccountEmail): RenderedAccountEmail {
  const rows: string[] = [];
  rows.push(`<tr><td style="padding:28px 28px 6px;font-family:${FONT};">
<div style="font-size:12px;color:${MUTED};text-transform:uppercase;letter-spacing:.08em;">${esc(e.eyebrow)}</div>
<div style="font-size:24px;font-weight:800;color:${INK};padding-top:6px;">${esc(e.heading)}</div>
</td></tr>`);
  for (const line of e.lines) {
    rows.push(`<tr><td style="padding:6px 28px;font-family:${FONT};font-size:15px;line-height:1.55;color:#374151;">${esc(line)}</td></tr>`);
  }
  if (e.action) {
    rows.push(
      `<tr><td style="padding:18px 28px 6px;"><a href="${esc(e.action.url)}" style="display:inline-block;background:${ACCENT};color:#ffffff;` +
        `text-decoration:none;font-family:${FONT};font-size:14px;font-weight:600;padding:11px 20px;border-radius:8px;">${esc(e.action.label)}</a></td></tr>`,
    );
  }
  if (e.code) {
    rows.push(
      `<tr><td style="padding:12px 28px 4px;font-family:${FONT};font-size:13px;color:${MUTED};">Or paste this code:</td></tr>` +
        `<tr><td style="padding:4px 28px;"><div style="font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:14px;color:${INK};` +
        `background:#f5f7ff;border-left:3px solid ${ACCENT};border-radius:6px;padding:10px 14px;word-break:break-all;">${esc(e.code)}</div></td></tr>`,
    );
  }
  const html = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light"><title>${esc(e.subject)}</title></head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="width:100%;max-width:600px;background:#ffffff;border-radius:14px;border:1px solid ${LINE};">
<tr><td style="height:6px;line-height:6px;font-size:0;background:${ACCENT};border-radius:14px 14px 0 0;">&nbsp;</td></tr>
${rows.join('\n')}
<tr><td style="padding:26px 28px 28px;font-family:${FONT};font-size:12px;color:${MUTED};line-height:1.5;">${esc(e.footer)}</td></tr>
</table></td></tr></table></body></html>`;
  const text = [
    e.heading,
    '',
    ...e.lines.flatMap((l) => [l, '']),
    ...(e.action ? [`${e.action.label}: ${e.action.url}`, ''] : []),
    ...(e.code ? [`Code: ${e.code}`, ''] : []),
    e.footer,
  ].join('\n');
  return { subject: e.subject, html, text };
}
