import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, Page } from 'playwright-core';
import { addMember, deliverStripeEvent, SEED_PASSWORD, startStripeServer, stripeEvent, StripeTestServer } from '@dl/testing';
import { signIn, signUp, startWorld, World } from './world';

// The Billing page in Chromium against the real api and the Stripe test server: plans with
// month and year prices, an upgrade that goes to Checkout, the subscription applied by signed
// webhook events, the invoices, the portal, and what an Admin sees. Stripe's own pages are
// answered by Playwright (the browser has no outside network). Screenshots in light, dark
// and at 390 px go to $TMPDIR/billing-screenshots.
const SECRET = 'whsec_dashboard_billing_0123456789';
const PRICES = {
  PRO: { month: { price: 'price_pro_m', amount: 1900, currency: 'usd' }, year: { price: 'price_pro_y', amount: 19000, currency: 'usd' } },
  BUSINESS: { month: { price: 'price_biz_m', amount: 9900, currency: 'usd' }, year: { price: 'price_biz_y', amount: 99000, currency: 'usd' } },
};
const shots = join(tmpdir(), 'billing-screenshots');

describe('dashboard: the Billing page (Chromium)', () => {
  let w: World;
  let stripe: StripeTestServer;
  let context: BrowserContext;
  let page: Page;
  let organizationId: string;
  let owner: { email: string; password: string };
  const stripePages: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    stripe = await startStripeServer();
    w = await startWorld({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICES: JSON.stringify(PRICES), STRIPE_API_BASE: stripe.url });
    context = await w.context();
    await context.route(/^https:\/\/(checkout|billing)\.stripe\.com\//, (route) => {
      stripePages.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe</title><h1>Stripe page</h1>' });
    });
    page = await context.newPage();
    owner = await signUp(page, 'Northwind Outdoor');
    const user = await w.env.prisma.user.findFirstOrThrow({ where: { email: owner.email }, select: { id: true } });
    ({ organizationId } = await w.env.prisma.membership.findFirstOrThrow({ where: { userId: user.id }, select: { organizationId: true } }));
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await w?.close();
    await stripe?.close();
  }, 60_000);

  it('shows the plan, the usage and the plans by month and year; upgrade goes to Checkout', async () => {
    await page.goto('/app/billing');
    const current = page.getByTestId('current-plan');
    await current.getByText('FREE plan').waitFor();
    await current.getByText('No subscription', { exact: true }).waitFor();
    await page.getByText('Clicks this month').waitFor();
    await page.getByTestId('plan-PRO').getByText('$19.00').waitFor();
    await page.getByTestId('plan-FREE').getByText('Current plan').waitFor();
    await page.getByRole('button', { name: 'Yearly' }).click();
    await page.getByTestId('plan-PRO').getByText('$190.00').waitFor();
    await page.getByTestId('plan-BUSINESS').getByText('$990.00').waitFor();
    expect(await page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    await page.screenshot({ path: join(shots, 'free-light-1280.png'), fullPage: true });

    await page.getByRole('button', { name: 'Upgrade to PRO' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = [...stripe.checkoutSessions.values()].find((s) => s.client_reference_id === organizationId)!;
    expect(stripePages).toEqual([session.url]);
    expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.params.line_items).toEqual([{ price: 'price_pro_y', quantity: '1' }]);

    // The customer pays: Stripe sends the events, then returns the browser to the success URL.
    const done = stripe.completeCheckout(session.id as string, { interval: 'year' });
    for (const [type, object] of [['checkout.session.completed', done.session], ['customer.subscription.created', done.subscription], ['invoice.paid', done.invoice]] as const) {
      expect((await deliverStripeEvent(w.api.url, stripeEvent(type, object), SECRET)).status).toBe(200);
    }
    await page.goto('/app/billing?checkout=success');
    await page.getByText('your payment went through').waitFor();
    await current.getByText('PRO plan').waitFor();
    await current.getByText('Active').waitFor();
    await current.getByText(/Renews on .*, billed every year/).waitFor();
    await page.getByTestId('plan-PRO').getByText('Current plan').waitFor();
    // A subscriber changes plan in the portal, never with a second Checkout; the period shown is the subscription's.
    await page.getByRole('button', { name: 'Switch to BUSINESS' }).waitFor();
    expect(await page.getByRole('button', { name: /Upgrade to/ }).count()).toBe(0);
    await page.getByTestId('plan-PRO').getByText('$190.00').waitFor();
    const rows = page.getByTestId('invoices').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().getByRole('link', { name: 'View' }).getAttribute('href')).toBe(done.invoice.hosted_invoice_url);
    await page.screenshot({ path: join(shots, 'pro-light-1280.png'), fullPage: true });

    await page.getByRole('button', { name: 'Manage billing' }).click();
    await page.waitForURL(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect([...stripe.portalSessions.values()].at(-1)).toMatchObject({ customer: done.session.customer });
  }, 120_000);

  it('dark and 390 px', async () => {
    for (const [name, opts] of [['pro-dark-1280', { dark: true }], ['pro-light-390', { width: 390, height: 844 }], ['pro-dark-390', { width: 390, height: 844, dark: true }]] as const) {
      const ctx = await w.context(opts);
      const p = await ctx.newPage();
      await signIn(p, owner.email, owner.password);
      await p.goto('/app/billing');
      await p.getByTestId('current-plan').getByText('PRO plan').waitFor();
      await p.getByTestId('invoices').waitFor();
      const overflow = await p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect({ name, overflow }).toEqual({ name, overflow: 0 });
      await p.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
      await ctx.close();
    }
  }, 120_000);

  it('an Admin sees the plan and the invoices, and no upgrade or manage buttons', async () => {
    const admin = await addMember(w.env, organizationId, 'ADMIN');
    const ctx = await w.context();
    const p = await ctx.newPage();
    await signIn(p, admin.user.email, SEED_PASSWORD);
    await p.goto('/app/billing');
    await p.getByTestId('current-plan').getByText('PRO plan').waitFor();
    await p.getByTestId('invoices').locator('tbody tr').first().waitFor();
    expect(await p.getByRole('button', { name: /Upgrade to|Switch to/ }).count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    await ctx.close();
  }, 60_000);
});
