import type { FastifyRequest } from 'fastify';

/**
 * The caller's IP: the first address of `TRUSTED_CLIENT_IP_HEADER` when configured (set it only
 * when the origin is reachable exclusively through that proxy), else the socket address.
 */
export function clientIp(request: FastifyRequest, trustedHeader: string | undefined): string | null {
  if (trustedHeader) {
    const value = request.headers[trustedHeader];
    const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
    if (first) return normalizeIp(first);
  }
  return request.ip ? normalizeIp(request.ip) : null;
}

/** `::ffff:1.2.3.4` → `1.2.3.4`, so IPv4 clients fingerprint alike whatever the socket family. */
export function normalizeIp(ip: string): string {
  const lower = ip.toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}
