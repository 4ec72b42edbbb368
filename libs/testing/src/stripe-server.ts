// A Stripe API stand-in on loopback for the billing tests (decisions §21): the endpoints the
// billing library calls through the official `stripe` package, answering Stripe's documented
// shapes (a representative subset of each object's fields, every field the code reads), parsing
// form-encoded bodies with Stripe's bracket notation, replaying Idempotency-Key requests and
// answering errors as `{error: {type, code, message, param}}`.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

type Obj = Record<string, unknown>;

export interface StripeRequestRecord {
  method: string;
  path: string;
  /** The form body (or query) decoded into nested objects and arrays. */
  params: Obj;
  headers: http.IncomingHttpHeaders;
}

/** A recurring Price as the server knows it (Stripe's `unit_amount`, `currency`, `recurring.interval`). */
export interface StripeTestPrice {
  unit_amount: number;
  currency: string;
  interval: 'month' | 'year';
}

/** The server's prices from a STRIPE_PRICES table (tier → interval → price id, amount, currency). */
export function stripeTestPrices(table: Record<string, Partial<Record<'month' | 'year', { price: string; amount: number; currency: string }>>>): Record<string, StripeTestPrice> {
  const prices: Record<string, StripeTestPrice> = {};
  for (const intervals of Object.values(table)) {
    for (const [interval, p] of Object.entries(intervals)) {
      if (p) prices[p.price] = { unit_amount: p.amount, currency: p.currency, interval: interval as 'month' | 'year' };
    }
  }
  return prices;
}

export interface StripeTestServer {
  /** For STRIPE_API_BASE. */
  url: string;
  secretKey: string;
  /** The prices a Checkout session may name (another → 400 resource_missing, as Stripe answers). */
  prices: Record<string, StripeTestPrice>;
  requests: StripeRequestRecord[];
  customers: Map<string, Obj>;
  checkoutSessions: Map<string, Obj>;
  portalSessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  invoices: Map<string, Obj>;
  /** `refuse`: every connection is reset before an answer (Stripe unreachable); `ok`: normal. */
  mode: 'ok' | 'refuse';
  /**
   * Looks at each request before it is answered (null: none): `'refuse'` resets its connection as
   * `mode` does, a promise holds the answer until it settles (a slow Stripe), anything else answers.
   */
  intercept: ((method: string, path: string) => 'refuse' | Promise<unknown> | undefined) | null;
  /**
   * Completes a Checkout session as a paying customer would: creates the subscription (active,
   * one item at the session's price, a period of its interval) and its first paid invoice of the
   * price's amount; returns the objects the webhook events carry.
   */
  completeCheckout(sessionId: string, opts?: { now?: number }): { session: Obj; subscription: Obj; invoice: Obj };
  /** Adds an invoice of a subscription (e.g. a failed renewal) and returns it. */
  addInvoice(subscriptionId: string, fields: { status: 'open' | 'paid' | 'void' | 'uncollectible'; now?: number; amount?: number }): Obj;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Decodes `a[b][0][c]=x&a[b][0][d]=y` into `{a: {b: [{c: 'x', d: 'y'}]}}` as Stripe does. */
export function decodeStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split(/\[|\]\[|\]/).filter((p, i) => p !== '' || i === 0);
    let node: Obj | unknown[] = out;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]);
      const key = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] = value;
      else {
        container[key] ??= nextIsIndex ? [] : {};
        node = container[key] as Obj | unknown[];
      }
    });
  }
  return out;
}

class StripeApiError extends Error {
  constructor(readonly status: number, readonly body: { type: string; code?: string; message: string; param?: string }) {
    super(body.message);
  }
}

const missing = (what: string, value: string, param?: string) =>
  new StripeApiError(param ? 400 : 404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${value}'`, param });
const required = (param: string) =>
  new StripeApiError(400, { type: 'invalid_request_error', code: 'parameter_missing', message: `Missing required param: ${param}.`, param });

/**
 * Starts the server on 127.0.0.1 (a free port) with these prices. Requests must carry
 * `Authorization: Bearer <secretKey>`.
 */
export async function startStripeServer(
  prices: Record<string, StripeTestPrice>,
  secretKey = `sk_test_${randomBytes(12).toString('hex')}`,
): Promise<StripeTestServer> {
  const sockets = new Set<Socket>();
  const idempotent = new Map<string, { status: number; body: string }>();
  const s: StripeTestServer = {
    url: '',
    secretKey,
    prices,
    requests: [],
    customers: new Map(),
    checkoutSessions: new Map(),
    portalSessions: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    mode: 'ok',
    intercept: null,
    completeCheckout: (sessionId, opts = {}) => completeCheckout(s, sessionId, opts),
    addInvoice: (subscriptionId, fields) => addInvoice(s, subscriptionId, fields),
    close: async () => undefined,
  };

  const route = (method: string, path: string, p: Obj): Obj => {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), object: 'customer', created: nowSeconds(), email: p.email ?? null, name: p.name ?? null, metadata: p.metadata ?? {}, livemode: false, deleted: undefined };
      s.customers.set(customer.id, customer);
      return customer;
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      if (!p.mode) throw required('mode');
      if (p.customer && !s.customers.has(String(p.customer))) throw missing('customer', String(p.customer), 'customer');
      const items = (p.line_items as Obj[] | undefined) ?? [];
      if (!items.length) throw required('line_items');
      items.forEach((item, i) => {
        if (!s.prices[String(item.price)]) throw missing('price', String(item.price), `line_items[${i}][price]`);
      });
      const session: Obj = {
        id: id('cs_test'),
        object: 'checkout.session',
        mode: p.mode,
        status: 'open',
        payment_status: 'unpaid',
        customer: p.customer ?? null,
        client_reference_id: p.client_reference_id ?? null,
        success_url: p.success_url ?? null,
        cancel_url: p.cancel_url ?? null,
        metadata: p.metadata ?? {},
        subscription: null,
        invoice: null,
        created: nowSeconds(),
        expires_at: nowSeconds() + 86400,
        livemode: false,
        url: '',
        // Kept for completeCheckout; Stripe returns line items only when expanded.
        _line_items: items,
        _subscription_data: p.subscription_data ?? {},
      };
      session.url = `https://checkout.stripe.com/c/pay/${session.id as string}`;
      s.checkoutSessions.set(session.id as string, session);
      return session;
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!p.customer) throw required('customer');
      if (!s.customers.has(String(p.customer))) throw missing('customer', String(p.customer), 'customer');
      const portal = { id: id('bps'), object: 'billing_portal.session', configuration: 'bpc_test', created: nowSeconds(), customer: p.customer, flow: null, livemode: false, locale: null, on_behalf_of: null, return_url: p.return_url ?? null, url: '' };
      portal.url = `https://billing.stripe.com/p/session/${portal.id}`;
      s.portalSessions.set(portal.id, portal);
      return portal;
    }
    if (method === 'GET' && path === '/v1/invoices') {
      const limit = Math.min(100, Math.max(1, Number(p.limit ?? 10)));
      const all = [...s.invoices.values()]
        .filter((i) => !p.customer || i.customer === p.customer)
        .sort((a, b) => (b.created as number) - (a.created as number));
      const after = p.starting_after ? all.findIndex((i) => i.id === p.starting_after) + 1 : 0;
      const page = all.slice(after, after + limit);
      return { object: 'list', data: page, has_more: after + limit < all.length, url: '/v1/invoices' };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sub) {
      const found = s.subscriptions.get(sub[1]);
      if (!found) throw missing('subscription', sub[1]);
      return found;
    }
    if (method === 'DELETE' && sub) return cancelSubscription(s, sub[1]);
    throw new StripeApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  };

  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      const params = decodeStripeForm(req.method === 'GET' || (req.method === 'DELETE' && !body) ? url.search.slice(1) : body);
      s.requests.push({ method: req.method ?? 'GET', path: url.pathname, params, headers: req.headers });
      const send = (status: number, json: string) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), 'stripe-version': String(req.headers['stripe-version'] ?? '') });
        res.end(json);
      };
      const key = req.headers['idempotency-key'];
      const replayKey = typeof key === 'string' && req.method === 'POST' ? `${url.pathname} ${key}` : null;
      const replay = replayKey ? idempotent.get(replayKey) : undefined;
      if (replay) {
        res.setHeader('idempotent-replayed', 'true');
        return send(replay.status, replay.body);
      }
      let status = 200;
      let json: string;
      try {
        if (req.headers.authorization !== `Bearer ${secretKey}`) {
          throw new StripeApiError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided.' });
        }
        json = JSON.stringify(route(req.method ?? 'GET', url.pathname, params), (k, v: unknown) => (k.startsWith('_') ? undefined : v));
      } catch (err) {
        if (!(err instanceof StripeApiError)) throw err;
        status = err.status;
        json = JSON.stringify({ error: err.body });
      }
      if (replayKey) idempotent.set(replayKey, { status, body: json });
      send(status, json);
    });
  };

  const server = http.createServer((req, res) => {
    const hold = s.intercept?.(req.method ?? 'GET', new URL(req.url ?? '/', 'http://x').pathname);
    if (s.mode === 'refuse' || hold === 'refuse') {
      req.socket.destroy();
      return;
    }
    void Promise.resolve(hold).then(
      () => answer(req, res),
      () => answer(req, res),
    );
  });
  server.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  s.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.close = () =>
    new Promise<void>((resolve) => {
      for (const c of sockets) c.destroy();
      server.close(() => resolve());
    });
  return s;
}

function periodEnd(start: number, interval: 'month' | 'year'): number {
  const d = new Date(start * 1000);
  if (interval === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  else d.setUTCFullYear(d.getUTCFullYear() + 1);
  return Math.floor(d.getTime() / 1000);
}

function completeCheckout(s: StripeTestServer, sessionId: string, opts: { now?: number }) {
  const session = s.checkoutSessions.get(sessionId);
  if (!session) throw new Error(`no checkout session ${sessionId}`);
  const now = opts.now ?? nowSeconds();
  const price = String((session._line_items as Obj[])[0].price);
  const { unit_amount, currency, interval } = s.prices[price];
  let customer = session.customer as string | null;
  if (!customer) {
    customer = id('cus');
    s.customers.set(customer, { id: customer, object: 'customer', created: now, email: null, name: null, metadata: {}, livemode: false });
  }
  const end = periodEnd(now, interval);
  const subscriptionId = id('sub');
  const subscription: Obj = {
    id: subscriptionId,
    object: 'subscription',
    customer,
    status: 'active',
    cancel_at_period_end: false,
    cancel_at: null,
    canceled_at: null,
    ended_at: null,
    created: now,
    start_date: now,
    billing_cycle_anchor: now,
    currency,
    collection_method: 'charge_automatically',
    latest_invoice: null,
    livemode: false,
    metadata: ((session._subscription_data as Obj).metadata as Obj | undefined) ?? {},
    trial_start: null,
    trial_end: null,
    items: {
      object: 'list',
      data: [
        {
          id: id('si'),
          object: 'subscription_item',
          created: now,
          current_period_start: now,
          current_period_end: end,
          quantity: 1,
          subscription: subscriptionId,
          price: { id: price, object: 'price', active: true, currency, unit_amount, recurring: { interval, interval_count: 1, usage_type: 'licensed' }, type: 'recurring', livemode: false },
        },
      ],
      has_more: false,
      url: `/v1/subscription_items?subscription=${subscriptionId}`,
    },
  };
  s.subscriptions.set(subscriptionId, subscription);
  const invoice = addInvoice(s, subscriptionId, { status: 'paid', now });
  subscription.latest_invoice = invoice.id;
  Object.assign(session, { status: 'complete', payment_status: 'paid', customer, subscription: subscriptionId, invoice: invoice.id });
  const strip = (o: Obj) => JSON.parse(JSON.stringify(o, (k, v: unknown) => (k.startsWith('_') ? undefined : v))) as Obj;
  return { session: strip(session), subscription: strip(subscription), invoice: strip(invoice) };
}

/**
 * DELETE /v1/subscriptions/:id as Stripe documents it: cancels at once (status `canceled`,
 * `canceled_at`, `ended_at`, `cancellation_details.reason` `cancellation_requested`) and answers
 * the subscription. `prorate` and `invoice_now` are read from the request record (`requests`).
 * A canceled subscription is answered as missing (404 resource_missing), as Stripe does.
 */
function cancelSubscription(s: StripeTestServer, subscriptionId: string): Obj {
  const sub = s.subscriptions.get(subscriptionId);
  if (!sub || sub.status === 'canceled') throw missing('subscription', subscriptionId);
  const now = nowSeconds();
  Object.assign(sub, { status: 'canceled', canceled_at: now, ended_at: now, cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' } });
  return sub;
}

function addInvoice(s: StripeTestServer, subscriptionId: string, fields: { status: string; now?: number; amount?: number }): Obj {
  const sub = s.subscriptions.get(subscriptionId);
  if (!sub) throw new Error(`no subscription ${subscriptionId}`);
  const now = fields.now ?? nowSeconds();
  const item = (sub.items as { data: Obj[] }).data[0];
  const price = item.price as { unit_amount: number; currency: string };
  const amount = fields.amount ?? price.unit_amount;
  const ofSubscription = [...s.invoices.values()].filter((i) => (i.parent as { subscription_details: Obj }).subscription_details.subscription === subscriptionId).length;
  const invoiceId = id('in');
  const ofCustomer = [...s.invoices.values()].filter((i) => i.customer === sub.customer).length;
  const number = `${String(sub.customer).slice(4, 12).toUpperCase()}-${String(ofCustomer + 1).padStart(4, '0')}`;
  const invoice: Obj = {
    id: invoiceId,
    object: 'invoice',
    number,
    customer: sub.customer,
    status: fields.status,
    amount_due: amount,
    amount_paid: fields.status === 'paid' ? amount : 0,
    amount_remaining: fields.status === 'paid' ? 0 : amount,
    attempt_count: 1,
    attempted: true,
    billing_reason: ofSubscription ? 'subscription_cycle' : 'subscription_create',
    collection_method: 'charge_automatically',
    currency: price.currency,
    created: now,
    period_start: item.current_period_start,
    period_end: item.current_period_end,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_test/${invoiceId}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_test/${invoiceId}/pdf`,
    livemode: false,
    metadata: {},
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { metadata: sub.metadata, subscription: subscriptionId } },
    total: amount,
    subtotal: amount,
  };
  s.invoices.set(invoiceId, invoice);
  return invoice;
}
