import { parseUrl } from '@dl/platform/validation';
/** `SSO_ALLOW_HTTP_HOSTS` (`host:port, host:port`) as a set of lower-cased `host:port`. */
export function parseAllowHttpHosts(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

export const IDP_URL_MESSAGE = 'Must be an https URL';

/**
 * An identity provider's URL (OIDC issuer, SAML endpoint) as stored, or null when refused: an
 * absolute `https` URL without credentials or fragment (kept as typed), or `http` for a `host:port` listed in
 * SSO_ALLOW_HTTP_HOSTS (decisions §25). At most 2,000 characters.
 */
export function checkIdpUrl(value: unknown, allowHttp: ReadonlySet<string>): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  const trimmed = value.trim();
  const url = parseUrl(trimmed);
  if (!url) return null;
  if (url.username || url.password || url.hash || !url.hostname) return null;
  // As typed: an OIDC issuer is compared to the provider's `issuer` exactly (no trailing slash added).
  if (url.protocol === 'https:') return trimmed;
  if (url.protocol !== 'http:') return null;
  const port = url.port || '80';
  return allowHttp.has(`${url.hostname.toLowerCase()}:${port}`) ? trimmed : null;
}
