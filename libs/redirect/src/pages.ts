import { RedirectLinkSnapshot } from './redirect-link';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and double- or single-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const STYLE =
  'body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;' +
  'font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7f9;color:#1f2933}' +
  'main{max-width:28rem;padding:2.5rem 2rem;margin:1rem;background:#fff;border-radius:12px;' +
  'box-shadow:0 1px 3px rgba(0,0,0,.08),0 8px 24px rgba(0,0,0,.06);text-align:center}' +
  '.code{font-size:.85rem;font-weight:600;letter-spacing:.08em;color:#7b8794}' +
  'h1{font-size:1.5rem;margin:.25rem 0 .75rem}p{margin:0;color:#52606d}' +
  '@media (prefers-color-scheme:dark){body{background:#12161c;color:#e4e7eb}main{background:#1c2128}p{color:#9aa5b1}}';

/** `title` and `text` are trusted markup (constants); callers escape anything else. */
function page(status: number | string, title: string, text: string, extraStyle = ''): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}${extraStyle}</style></head>` +
    `<body><main><div class="code">${status}</div><h1>${title}</h1><p>${text}</p></main></body></html>`
  );
}

const FORM_STYLE =
  'form{margin-top:1.25rem;display:flex;flex-direction:column;gap:.75rem;text-align:left}' +
  'label{font-size:.9rem;font-weight:600}input{font:inherit;padding:.6rem .75rem;border:1px solid #cbd2d9;border-radius:8px}' +
  'button{font:inherit;font-weight:600;padding:.6rem;border:0;border-radius:8px;background:#2563eb;color:#fff;cursor:pointer}' +
  '.error{color:#b91c1c;font-weight:600;margin-top:.75rem}' +
  '@media (prefers-color-scheme:dark){input{background:#12161c;color:#e4e7eb;border-color:#3e4c59}.error{color:#f87171}}';

/**
 * The password form (no Open Graph tags, crawlers get it too). It posts to the page's own
 * address, so the visitor's query string travels with the answer.
 */
export function passwordPage(wrong: boolean): string {
  const error = wrong ? '<p class="error" role="alert">Wrong password</p>' : '';
  return page(
    '&#128274;',
    'This link is password protected',
    'Enter the password to continue.' +
      `</p>${error}<form method="post"><label for="password">Password</label>` +
      '<input id="password" name="password" type="password" required autofocus autocomplete="current-password" maxlength="128">' +
      '<button type="submit">Continue</button></form><p>',
    FORM_STYLE,
  );
}

export const TOO_MANY_TRIES_PAGE = page(
  429,
  'Too many tries',
  'Too many wrong passwords were entered for this link. Please wait a minute and try again.',
);

/**
 * The cloak page: the destination in a full-page frame under the short URL, the link's title
 * as the page title, and a plain link for sites that refuse to be framed.
 */
export function cloakPage(link: RedirectLinkSnapshot, location: string): string {
  const title = escapeHtml(link.ogTitle ?? link.title ?? link.shortCode);
  const href = escapeHtml(location);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${title}</title><style>html,body{margin:0;height:100%;overflow:hidden}` +
    'iframe{border:0;width:100%;height:100%;display:block}' +
    '.open{position:fixed;right:.5rem;bottom:.5rem;font:12px system-ui,sans-serif;background:rgba(255,255,255,.9);' +
    'padding:.25rem .5rem;border-radius:6px;color:#1f2933}</style></head>' +
    // Sandboxed (decisions §22): the framed site runs, but cannot navigate the top page or reach
    // this origin's storage; Permissions-Policy on the answer grants it no device or payment API.
    `<body><iframe src="${href}" title="${title}" sandbox="allow-scripts allow-forms allow-popups allow-same-origin" referrerpolicy="no-referrer-when-downgrade"></iframe>` +
    `<a class="open" href="${href}" target="_top" rel="noopener">Open ${title} directly</a></body></html>`
  );
}

export const NOT_FOUND_PAGE = page(
  404,
  'Link not found',
  'This short link does not exist or is no longer active. Check the address, or ask whoever shared it for a new one.',
);

export const EXPIRED_PAGE = page(
  410,
  'This link has expired',
  'The owner of this short link set it to expire, and that time has passed.',
);

export const BAD_LINK_PAGE = page(
  400,
  'This link is not valid',
  'The address of this link is incomplete or points to something other than a web page.',
);

export const UNAVAILABLE_PAGE = page(
  503,
  'Temporarily unavailable',
  'We could not look this link up just now. Please try again in a few seconds.',
);

/** The crawler page: Open Graph and Twitter card tags (escaped), then a meta refresh to the destination. */
export function previewPage(link: RedirectLinkSnapshot, location: string): string {
  const title = link.ogTitle ?? '';
  const tags: string[] = [];
  const meta = (attr: 'property' | 'name', key: string, value: string | null) => {
    if (value) tags.push(`<meta ${attr}="${key}" content="${escapeHtml(value)}">`);
  };
  meta('property', 'og:type', 'website');
  meta('property', 'og:url', location);
  meta('property', 'og:title', link.ogTitle);
  meta('property', 'og:description', link.ogDescription);
  meta('property', 'og:image', link.ogImageUrl);
  meta('name', 'twitter:card', link.ogImageUrl ? 'summary_large_image' : 'summary');
  meta('name', 'twitter:title', link.ogTitle);
  meta('name', 'twitter:description', link.ogDescription);
  meta('name', 'twitter:image', link.ogImageUrl);
  const href = escapeHtml(location);
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    `<title>${escapeHtml(title)}</title>${tags.join('')}` +
    `<meta http-equiv="refresh" content="0; url=${href}"></head>` +
    `<body><p><a href="${href}">${escapeHtml(title || location)}</a></p></body></html>`
  );
}

const WARNING_STYLE =
  '.dest{margin:1rem 0;padding:.6rem .75rem;border-radius:8px;background:#fef3c7;color:#78350f;word-break:break-all;font-family:ui-monospace,monospace;font-size:.9rem;text-align:left}' +
  '.actions{margin-top:1.25rem;display:flex;gap:.75rem;justify-content:center;flex-wrap:wrap}' +
  '.actions a{font-weight:600;padding:.6rem 1rem;border-radius:8px;text-decoration:none}' +
  '.go{background:#2563eb;color:#fff}.report{border:1px solid #cbd2d9;color:#1f2933}' +
  '@media (prefers-color-scheme:dark){.dest{background:#422006;color:#fde68a}.report{color:#e4e7eb;border-color:#3e4c59}}';

/**
 * The warning page of a suspicious link (decisions §22): the destination in plain text (never a
 * link), "Continue" (the same address with `dl_continue=1`, then a normal visit) and "Report".
 */
export function warningPage(shortCode: string, destination: string, query: string, reason: string | null): string {
  const continueHref = `?${query ? `${query}&` : ''}dl_continue=1`;
  const reportHref = `/${encodeURIComponent(shortCode)}/report`;
  const why = reason ? ` (${escapeHtml(reason)})` : '';
  return page(
    '&#9888;',
    'This link may be unsafe',
    `Our checks flagged where this link goes${why}. Only continue if you trust it.</p>` +
      `<div class="dest">${escapeHtml(destination)}</div>` +
      `<div class="actions"><a class="go" href="${escapeHtml(continueHref)}" rel="nofollow">Continue</a>` +
      `<a class="report" href="${reportHref}" rel="nofollow">Report</a></div><p>`,
    WARNING_STYLE,
  );
}

const PREVIEW_STYLE =
  'dl{margin:1rem 0 0;text-align:left}dt{font-size:.8rem;font-weight:600;color:#7b8794;margin-top:.6rem}' +
  'dd{margin:0;word-break:break-all;font-family:ui-monospace,monospace;font-size:.9rem}' +
  '.actions{margin-top:1.25rem}.actions a{font-weight:600;padding:.6rem 1rem;border-radius:8px;text-decoration:none;background:#2563eb;color:#fff}' +
  '@media (prefers-color-scheme:dark){dt{color:#9aa5b1}}';

/**
 * A link's preview (FDL's `previewLink`): where it leads on each platform and its social card,
 * as plain text, and the link itself. Seeing it records no click.
 */
export function linkPreviewPage(link: RedirectLinkSnapshot, shortUrl: string): string {
  const rows: Array<[string, string | null]> = [
    ['Link', link.originalUrl],
    ['iOS', link.iosUrl],
    ['Android', link.androidUrl],
    ['Other platforms', link.webFallbackUrl],
    ['Social title', link.ogTitle],
    ['Social description', link.ogDescription],
    ['Social image', link.ogImageUrl],
  ];
  const list = rows
    .filter((r): r is [string, string] => Boolean(r[1]))
    .map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  return page(
    'Preview',
    'Where this link goes',
    `${escapeHtml(shortUrl)}</p><dl>${list}</dl>` +
      `<div class="actions"><a href="${escapeHtml(shortUrl)}" rel="nofollow">Open the link</a></div><p>`,
    PREVIEW_STYLE,
  );
}

/** The 403 page of a blocked link or a suspended organization: the reason, no way through. */
export function disabledPage(reason: string | null): string {
  const why = reason ? ` Reason: ${escapeHtml(reason)}.` : '';
  return page(403, 'This link has been disabled', `It was found to lead somewhere harmful and can no longer be followed.${why}`);
}

const REPORT_STYLE =
  // A flex item's min-width is its content's: without these a long option widens the card past a phone's screen.
  'main{min-width:0;width:100%;box-sizing:border-box}form *{max-width:100%;box-sizing:border-box}' +
  'select,textarea{font:inherit;padding:.6rem .75rem;border:1px solid #cbd2d9;border-radius:8px;background:#fff;color:#1f2933}' +
  'textarea{min-height:5rem;resize:vertical}' +
  '@media (prefers-color-scheme:dark){select,textarea{background:#12161c;color:#e4e7eb;border-color:#3e4c59}}';
const REPORT_CATEGORIES: ReadonlyArray<[string, string]> = [
  ['phishing', 'Phishing (a fake login page)'],
  ['malware', 'Malware or a harmful download'],
  ['spam', 'Spam'],
  ['illegal', 'Illegal content'],
  ['other', 'Something else'],
];

/**
 * The report form of `/<code>/report` (decisions §22). It posts to its own address (the page's
 * CSP allows forms to the same origin only); the edge files the report through the abuse desk.
 */
export function reportPage(shortCode: string, error: string | null = null): string {
  const alert = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
  const options = REPORT_CATEGORIES.map(([value, label]) => `<option value="${value}">${label}</option>`).join('');
  return page(
    '&#9873;',
    'Report this link',
    `Tell us what is wrong with <strong>/${escapeHtml(shortCode)}</strong>. An operator reviews every report.</p>${alert}` +
      '<form method="post"><label for="category">What is wrong</label>' +
      `<select id="category" name="category" required>${options}</select>` +
      '<label for="details">Details (optional)</label><textarea id="details" name="details" maxlength="2000"></textarea>' +
      '<label for="reporterEmail">Your email (optional, if we may contact you)</label>' +
      '<input id="reporterEmail" name="reporterEmail" type="email" maxlength="254" autocomplete="email">' +
      '<button type="submit">Send report</button></form><p>',
    FORM_STYLE + REPORT_STYLE,
  );
}

export const REPORTED_PAGE = page('&#10003;', 'Thank you', 'Your report was received. An operator will review this link.');

export const TOO_MANY_REPORTS_PAGE = page(429, 'Too many reports', 'Too many reports were sent from your address. Please try again later.');
