import { isIP } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** What `clientIp` reads of a request: Fastify's or the bare `node:http` one. */
export interface ClientIpSource {
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string } | null;
  ip?: string;
}

/**
 * The caller's IP, normalized exactly as the redirect normalizes a visitor's (so a device's
 * install fingerprint matches its click's): the first address of `TRUSTED_CLIENT_IP_HEADER`
 * when configured (set it only when the origin is reachable exclusively through that proxy),
 * else the socket's peer.
 */
export function clientIp(request: ClientIpSource, trustedHeader: string | undefined): string | null {
  if (trustedHeader) {
    const raw = request.headers[trustedHeader];
    const ip = normalizeIp((Array.isArray(raw) ? raw[0] : raw)?.split(',')[0]);
    if (ip) return ip;
  }
  return normalizeIp(request.socket?.remoteAddress ?? request.ip);
}

/** "::ffff:1.2.3.4" → "1.2.3.4", "[::1]" → "::1"; anything that is not an IP → null. */
export function normalizeIp(value: string | undefined | null): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith('[') && ip.includes(']')) ip = ip.slice(1, ip.indexOf(']'));
  if (ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}
