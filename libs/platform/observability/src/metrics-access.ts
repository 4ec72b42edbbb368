import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: the only peers that read /metrics without a token. */
export function isLoopbackAddress(address: string | undefined | null): boolean {
  if (!address) return false;
  let ip = address.trim().toLowerCase();
  if (ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  if (isIP(ip) === 4) return ip.startsWith('127.');
  return ip === '::1' || ip === '0:0:0:0:0:0:0:1';
}

export type MetricsAccess = 'allowed' | 'not-found' | 'unauthorized';

/**
 * Decisions §14: /metrics answers a loopback peer (the socket's address, never a forwarded
 * header), or anyone with `Authorization: Bearer <METRICS_TOKEN>` when a token is set.
 * Elsewhere it does not exist (404) when no token is set, and asks for it (401) when one is.
 * The token is compared in constant time (digests of equal length).
 */
export function metricsAccess(remoteAddress: string | undefined | null, authorization: string | undefined, token: string | undefined): MetricsAccess {
  if (token && authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match && sameSecret(match[1], token)) return 'allowed';
  }
  if (isLoopbackAddress(remoteAddress)) return 'allowed';
  return token ? 'unauthorized' : 'not-found';
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
