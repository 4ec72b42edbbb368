import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { clientIp } from './client-ip';

/** Who acts in a request: a signed-in user or an API key (set by the auth guard). */
export interface RequestActor {
  type: 'user' | 'apiKey';
  id: string;
}

/** Who is on the other end of the request being served: what an audit entry records. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

interface Held {
  headers: IncomingHttpHeaders;
  socketAddress: string | undefined;
  trustedIpHeader: string | undefined;
  requestId: string;
  meta?: RequestMeta;
  actor?: RequestActor;
}

const storage = new AsyncLocalStorage<Held>();

/**
 * Runs `next` (the rest of a request's handling: guards, pipes, the handler, the services it
 * calls) with the request's meta reachable through `currentRequestMeta()`, so a service records
 * an audit entry's IP, user agent and request id without controllers threading them through.
 * Only the references are kept here; the IP is worked out on first use.
 */
export function runInRequestContext(
  request: { headers: IncomingHttpHeaders; id: string; socketAddress: string | undefined },
  trustedIpHeader: string | undefined,
  next: () => void,
): void {
  storage.run({ headers: request.headers, socketAddress: request.socketAddress, trustedIpHeader, requestId: request.id }, next);
}

/** The meta of the request being served, or undefined outside one (the worker, the CLI). */
export function currentRequestMeta(): RequestMeta | undefined {
  const held = storage.getStore();
  if (!held) return undefined;
  if (!held.meta) {
    const ua = held.headers['user-agent'];
    held.meta = {
      ip: clientIp(held.headers, held.socketAddress, held.trustedIpHeader),
      userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
      requestId: held.requestId.slice(0, 128),
    };
  }
  return held.meta;
}

/** Records who the request acts as (the auth guard, once the credential is known). */
export function setRequestActor(actor: RequestActor): void {
  const held = storage.getStore();
  if (held) held.actor = actor;
}

/** Who the request being served acts as, when it is authenticated. */
export function currentRequestActor(): RequestActor | undefined {
  return storage.getStore()?.actor;
}
