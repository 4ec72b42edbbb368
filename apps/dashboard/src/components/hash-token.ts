/**
 * The `#token=…` of an emailed link (verification, reset, invitation). Tokens travel in the
 * fragment, which browsers never send to a server, so they stay out of access logs and Referer.
 */
export function hashToken(): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_]+)/.exec(window.location.hash);
  return match ? match[1] : null;
}
