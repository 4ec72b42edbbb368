// The billing e2e world: the api with billing on, pointed at the Stripe test server, emails
// written to a temporary outbox.
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingClock } from '@dl/billing';
import {
  createTestEnv,
  deliverStripeEvent,
  RunningApp,
  startApp,
  startStripeServer,
  stripeTestPrices,
  StripeTestEvent,
  StripeTestServer,
  TestEnv,
} from '@dl/testing';
import { createApiApp } from '../../app';

export const WEBHOOK_SECRET = 'whsec_test_billing_e2e_0123456789';
export const PRICES = {
  PRO: { month: { price: 'price_pro_month', amount: 1900, currency: 'usd' }, year: { price: 'price_pro_year', amount: 19000, currency: 'usd' } },
  BUSINESS: { month: { price: 'price_biz_month', amount: 9900, currency: 'usd' }, year: { price: 'price_biz_year', amount: 99000, currency: 'usd' } },
};

export interface BillingWorld {
  env: TestEnv;
  api: RunningApp;
  stripe: StripeTestServer;
  outbox: string;
  clock: BillingClock;
  call(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: any; headers: Headers }>;
  deliver(event: StripeTestEvent, opts?: { timestamp?: number; signature?: string | null }): Promise<{ status: number; body: unknown }>;
  /** Emails in the outbox to `address` (raw .eml text). */
  mails(address: string): Promise<string[]>;
  close(): Promise<void>;
}

export async function billingWorld(overrides: Record<string, string> = {}): Promise<BillingWorld> {
  const stripe = await startStripeServer(stripeTestPrices(PRICES));
  const outbox = await mkdtemp(join(tmpdir(), 'billing-outbox-'));
  const env = await createTestEnv({
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICES: JSON.stringify(PRICES),
    STRIPE_API_BASE: stripe.url,
    DASHBOARD_URL: 'http://dash.test/app',
    MAIL_OUTBOX_DIR: outbox,
    BILLING_GRACE_SWEEP_MS: '200',
    ...overrides,
  });
  const api = await startApp(createApiApp, env.config);
  return {
    env,
    api,
    stripe,
    outbox,
    clock: api.app.get(BillingClock),
    async call(method, path, token, body) {
      const res = await fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
    },
    deliver: (event, opts) => deliverStripeEvent(api.url, event, WEBHOOK_SECRET, opts),
    async mails(address) {
      const files = (await readdir(outbox)).filter((f) => f.includes(address.replace(/[^A-Za-z0-9@._-]+/g, '_'))).sort();
      return Promise.all(files.map((f) => readFile(join(outbox, f), 'utf8')));
    },
    async close() {
      await api.close();
      await stripe.close();
      await env.teardown();
    },
  };
}

/** Polls until `fn` returns a truthy value (or throws after `ms`). */
export async function eventually<T>(fn: () => Promise<T | null | undefined | false>, ms = 10_000, every = 100): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, every));
  }
}
