import { isHttpScheme, parseUrl } from '@dl/platform/validation';

/**
 * One spelling per destination, so that a feed entry matches however a link writes it
 * (decisions §22): scheme and host lower-cased, IDN hosts in punycode, the trailing dot of a
 * fully-qualified host dropped, default ports dropped, percent-escapes of unreserved characters
 * decoded and the others upper-cased, the fragment dropped. http and https share one key: a
 * feed lists a place, and the same place is as bad over either scheme.
 */
export interface CanonicalUrl {
  /** The host in ASCII (punycode), lower-case, without a trailing dot; IPv6 in brackets. */
  host: string;
  /** `host[:port]/path[?query]`: what a URL entry of a feed is matched on. */
  key: string;
  /** The URL object the key was made from, for the built-in rules. */
  url: URL;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Decodes escapes of unreserved characters (%41 → A) and upper-cases the hex of the rest. */
export function normalizeEscapes(part: string): string {
  return part.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * RFC 3986 dot-segment removal on a path whose escapes are normalised (`%2E` is `.` by then).
 * The WHATWG parser should leave none, but Node's parser keeps a final `.` after a segment
 * such as `.-` (`/a/.-/.`), and a feed entry and a link must still agree.
 */
export function removeDotSegments(path: string): string {
  const segments = path.split('/');
  const out: string[] = [];
  for (let i = 1; i < segments.length; i++) {
    const s = segments[i];
    if (s !== '.' && s !== '..') out.push(s);
    else {
      if (s === '..') out.pop();
      if (i === segments.length - 1) out.push('');
    }
  }
  return `/${out.join('/')}`;
}

/** Host without its trailing dot(s); the WHATWG parser already lower-cased it and made it punycode. */
export function canonicalHost(hostname: string): string {
  return hostname.replace(/\.+$/, '');
}

/** The canonical form of an http(s) URL, or null when it is not one. */
export function canonicalizeUrl(raw: string): CanonicalUrl | null {
  const url = parseUrl(raw.trim());
  if (!url || !isHttpScheme(url)) return null;
  const host = canonicalHost(url.hostname);
  if (!host) return null;
  // The parser drops a port equal to the scheme's default; the other scheme's default is
  // dropped too, since the key is scheme-less (http://x:443 and https://x:80 are rare and odd).
  const port = url.port && url.port !== '80' && url.port !== '443' ? `:${url.port}` : '';
  const path = removeDotSegments(normalizeEscapes(url.pathname || '/'));
  const query = url.search ? normalizeEscapes(url.search) : '';
  return { host, key: `${host}${port}${path}${query}`, url };
}

/** A domain entry of a feed in canonical form (punycode, lower-case, no trailing dot), or null. */
export function canonicalDomain(raw: string): string | null {
  const name = raw.trim();
  if (!name || name.length > 253 || /[\s/@:?#]/.test(name)) return null;
  const url = parseUrl(`http://${name}/`);
  if (!url) return null;
  const host = canonicalHost(url.hostname);
  if (!host.includes('.') && !host.startsWith('[')) return null;
  return host;
}

/** A host and every parent domain of it (a.b.c → a.b.c, b.c, c), which a domain entry covers. */
export function hostSuffixes(host: string): string[] {
  if (host.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(host)) return [host];
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length; i++) out.push(labels.slice(i).join('.'));
  return out;
}
