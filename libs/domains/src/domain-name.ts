import { domainToASCII } from 'node:url';

export const DOMAIN_NAME_MESSAGE = 'Must be a valid domain name';
export const MAX_DOMAIN_LENGTH = 253;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A customer's domain as stored (decisions §15): a DNS host name of two or more labels,
 * at most 253 characters, lower-cased, an IDN converted to punycode (`bücher.example` →
 * `xn--bcher-kva.example`). Returns null for anything else: a scheme, path, port, query,
 * user info, whitespace, a trailing dot, an IP literal, a single label, an all-numeric
 * top-level label, an empty or over-long label. Upper case is normalised, not refused:
 * DNS names are case-insensitive, so `GO.Acme.com` names the same host as `go.acme.com`.
 */
export function normalizeDomainName(input: unknown): string | null {
  if (typeof input !== 'string' || input.length === 0 || input.length > 1024) return null;
  // Anything that is not part of a host name: scheme, path, port, query, fragment, user info,
  // whitespace, brackets (IPv6 literals), percent-escapes, backslashes.
  if (/[\s/:?#@[\]%\\]/.test(input)) return null;
  if (input.endsWith('.') || input.startsWith('.')) return null;
  const ascii = domainToASCII(input.normalize('NFC'));
  if (!ascii || ascii.length > MAX_DOMAIN_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return null;
  // An IPv4 literal (or any name whose last label is all digits, which no TLD is).
  if (/^\d+$/.test(labels[labels.length - 1])) return null;
  return ascii;
}
