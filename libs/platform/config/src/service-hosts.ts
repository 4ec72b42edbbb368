import { AppConfig, NodeEnv } from './config';

/**
 * The service's own host names (decisions §15), lower-cased without a port: the host of
 * SHORT_LINK_BASE_URL, those in SERVICE_HOSTS, and outside production `localhost`,
 * `127.0.0.1` and `[::1]`. They serve the links that are on no branded domain.
 */
export function serviceHosts(config: Pick<AppConfig, 'SHORT_LINK_BASE_URL' | 'SERVICE_HOSTS' | 'NODE_ENV'>): ReadonlySet<string> {
  const hosts = new Set<string>([new URL(config.SHORT_LINK_BASE_URL).hostname.toLowerCase()]);
  for (const entry of (config.SERVICE_HOSTS ?? '').split(',')) {
    const host = normalizeHost(entry.trim());
    if (host) hosts.add(host);
  }
  if (config.NODE_ENV !== NodeEnv.Production) for (const h of ['localhost', '127.0.0.1', '[::1]']) hosts.add(h);
  return hosts;
}

/**
 * A Host header value as a bare lower-cased host name: the port stripped (`[v6]:port` kept
 * bracketed), a trailing dot dropped. Returns null for a missing, empty or over-long value.
 */
export function normalizeHost(value: string | undefined | null): string | null {
  if (!value || value.length > 300) return null;
  let host = value.trim().toLowerCase();
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return null;
    host = host.slice(0, end + 1);
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host || null;
}

/**
 * The key of a link at the edge and on the invalidation channel: its short code on the
 * service's own hosts (as before branded domains), `<domain>/<code>` on a branded domain
 * (a code never contains `/`).
 */
export function hostCodeKey(domainName: string, code: string): string {
  return domainName ? `${domainName}/${code}` : code;
}
