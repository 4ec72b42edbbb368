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
