// Stripe webhook events for the billing tests: built like Stripe's snapshot events and signed
// exactly as Stripe signs them (Stripe-Signature `t=<unix seconds>,v1=<hex HMAC-SHA256 of
// "<t>.<payload>" keyed by the endpoint secret>`), so the real `constructEvent` check runs.
import { createHmac, randomBytes } from 'node:crypto';

export interface StripeTestEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** An event of `type` carrying `object`; `created` defaults to now (Unix seconds). */
export function stripeEvent(type: string, object: Record<string, unknown>, opts: { created?: number; id?: string } = {}): StripeTestEvent {
  return {
    id: opts.id ?? `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: opts.created ?? Math.floor(Date.now() / 1000),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The Stripe-Signature header of `payload` (the exact bytes sent) at `timestamp` (Unix seconds). */
export function signStripePayload(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** POSTs an event to the api's Stripe webhook as Stripe does; `signature` overrides the header. */
export async function deliverStripeEvent(
  apiUrl: string,
  event: StripeTestEvent,
  secret: string,
  opts: { timestamp?: number; signature?: string | null } = {},
): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(event, null, 2);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)' };
  const signature = opts.signature === undefined ? signStripePayload(payload, secret, opts.timestamp) : opts.signature;
  if (signature !== null) headers['stripe-signature'] = signature;
  const res = await fetch(`${apiUrl}/billing/stripe/webhook`, { method: 'POST', headers, body: payload });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body };
}
