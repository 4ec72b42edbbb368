/**
 * The session: the access token (JWT) lives in this module's memory only, never in
 * localStorage or a readable cookie. On reload it is gone; `restoreSession()` asks
 * POST /auth/refresh, which reads the HttpOnly, SameSite=Strict, Path=/auth refresh
 * cookie set at login and answers a fresh access token (docs/decisions/dashboard.md).
 */
type Listener = (token: string | null) => void;

let accessToken: string | null = null;
let expiresAt = 0;
const listeners = new Set<Listener>();

export function getToken(): string | null {
  return accessToken && Date.now() < expiresAt ? accessToken : null;
}

export function setSession(token: string | null, expiresInSeconds = 0): void {
  accessToken = token;
  expiresAt = token ? Date.now() + expiresInSeconds * 1000 - 30_000 : 0;
  for (const l of listeners) l(token);
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Claims of the current token (for display only: the API checks them). */
export function sessionClaims(): { sub: string; org: string; role: string } | null {
  const token = getToken();
  if (!token) return null;
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(atob(part)) as { sub: string; org: string; role: string };
  } catch {
    return null;
  }
}

let refreshing: Promise<string | null> | null = null;

/** A fresh access token from the refresh cookie, or null (no cookie, expired, membership gone). */
export function refreshSession(): Promise<string | null> {
  refreshing ??= fetch('/auth/refresh', { method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'dashboard' } })
    .then(async (res) => {
      if (!res.ok) {
        setSession(null);
        return null;
      }
      const body = (await res.json()) as { accessToken: string; expiresIn: number };
      setSession(body.accessToken, body.expiresIn);
      return body.accessToken;
    })
    .catch(() => null)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export async function logout(): Promise<void> {
  setSession(null);
  await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: { 'X-Requested-With': 'dashboard' } }).catch(
    () => undefined,
  );
}
