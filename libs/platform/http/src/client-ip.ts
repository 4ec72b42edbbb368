import { isIP } from 'node:net';

/** "::ffff:1.2.3.4" → "1.2.3.4", "[::1]" → "::1"; anything that is not an IP → null. */
export function normalizeIp(value: string | undefined | null): string | null {
  if (!value) return null;
  let ip = value.trim();
  if (ip.startsWith('[') && ip.includes(']')) ip = ip.slice(1, ip.indexOf(']'));
  if (ip.toLowerCase().startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip : null;
}

/**
 * The caller's IP, one rule for every app (a device's install fingerprint must match its
 * click's, and the password routes' per-IP limit counts the same address): the first address
 * of `TRUSTED_CLIENT_IP_HEADER` when configured (set it only when the origin is reachable
 * exclusively through that proxy), else the socket's peer. X-Forwarded-For and friends are
 * ignored otherwise.
 */
export function clientIp(
  headers: Record<string, string | string[] | undefined>,
  socketAddress: string | undefined,
  trustedHeader: string | undefined,
): string | null {
  if (trustedHeader) {
    const raw = headers[trustedHeader];
    const ip = normalizeIp((Array.isArray(raw) ? raw[0] : raw)?.split(',')[0]);
    if (ip) return ip;
  }
  return normalizeIp(socketAddress);
}
