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

function page(status: number, title: string, text: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>` +
    `<body><main><div class="code">${status}</div><h1>${title}</h1><p>${text}</p></main></body></html>`
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
