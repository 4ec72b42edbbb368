import { addMember, deliverStripeEvent, SEED_PASSWORD, startStripeServer, stripeEvent, stripeTestPrices, useSuite } from '@dl/testing';
import { openPage, shoot, signIn, signUpOwner } from './world';

// The Billing page in Chromium against the real api and the Stripe test server: plans with
// month and year prices, an upgrade that goes to Checkout, the subscription applied by signed
// webhook events, the invoices, the portal, and what an Admin sees. Stripe's own pages are
// answered by Playwright (the browser has no outside network). With DL_SHOTS_DIR, screenshots
// in light, dark and at 390 px (billing-*.png).
const SECRET = 'whsec_dashboard_billing_0123456789';
const PRICES = {
  PRO: { month: { price: 'price_pro_m', amount: 1900, currency: 'usd' }, year: { price: 'price_pro_y', amount: 19000, currency: 'usd' } },
  BUSINESS: { month: { price: 'price_biz_m', amount: 9900, currency: 'usd' }, year: { price: 'price_biz_y', amount: 99000, currency: 'usd' } },
};

describe('dashboard: the Billing page (Chromium)', () => {
  const stripePages: string[] = [];
  const t = useSuite(async (own) => {
    const stripe = own(await startStripeServer(stripeTestPrices(PRICES)));
    const { w, context, page } = await openPage(own, { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_PRICES: JSON.stringify(PRICES), STRIPE_API_BASE: stripe.url });
    await context.route(/^https:\/\/(checkout|billing)\.stripe\.com\//, (route) => {
      stripePages.push(route.request().url());
      return route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Stripe</title><h1>Stripe page</h1>' });
    });
    const owner = await signUpOwner(w, page, 'Northwind Outdoor');
    return { stripe, w, context, page, owner, organizationId: owner.organizationId };
  }, 120_000);

  it('shows the plan, the usage and the plans by month and year; upgrade goes to Checkout', async () => {
    await t.page.goto('/app/billing');
    const current = t.page.getByTestId('current-plan');
    await current.getByText('FREE plan').waitFor();
    await current.getByText('No subscription', { exact: true }).waitFor();
    await t.page.getByText('Clicks this month').waitFor();
    await t.page.getByTestId('plan-PRO').getByText('$19.00').waitFor();
    await t.page.getByTestId('plan-FREE').getByText('Current plan').waitFor();
    await t.page.getByRole('button', { name: 'Yearly' }).click();
    await t.page.getByTestId('plan-PRO').getByText('$190.00').waitFor();
    await t.page.getByTestId('plan-BUSINESS').getByText('$990.00').waitFor();
    expect(await t.page.getByRole('button', { name: 'Manage billing' }).count()).toBe(0);
    await shoot(t.page, 'billing-free-light-1280', true);

    await t.page.getByRole('button', { name: 'Upgrade to PRO' }).click();
    await t.page.waitForURL(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const session = [...t.stripe.checkoutSessions.values()].find((s) => s.client_reference_id === t.organizationId)!;
    expect(stripePages).toEqual([session.url]);
    expect(t.stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.params.line_items).toEqual([{ price: 'price_pro_y', quantity: '1' }]);

    // The customer pays: Stripe sends the events, then returns the browser to the success URL.
    const done = t.stripe.completeCheckout(session.id as string);
    for (const [type, object] of [['checkout.session.completed', done.session], ['customer.subscription.created', done.subscription], ['invoice.paid', done.invoice]] as const) {
      expect((await deliverStripeEvent(t.w.api.url, stripeEvent(type, object), SECRET)).status).toBe(200);
    }
    await t.page.goto('/app/billing?checkout=success');
    await t.page.getByText('your payment went through').waitFor();
    await current.getByText('PRO plan').waitFor();
    await current.getByText('Active').waitFor();
    await current.getByText(/Renews on .*, billed every year/).waitFor();
    await t.page.getByTestId('plan-PRO').getByText('Current plan').waitFor();
    // A subscriber changes plan in the portal, never with a second Checkout; the period shown is the subscription's.
    await t.page.getByRole('button', { name: 'Switch to BUSINESS' }).waitFor();
    expect(await t.page.getByRole('button', { name: /Upgrade to/ }).count()).toBe(0);
    await t.page.getByTestId('plan-PRO').getByText('$190.00').waitFor();
    const rows = t.page.getByTestId('invoices').locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    // The yearly price's first invoice.
    await rows.first().getByText('$190.00').waitFor();
    expect(await rows.first().getByRole('link', { name: 'View' }).getAttribute('href')).toBe(done.invoice.hosted_invoice_url);
    await shoot(t.page, 'billing-pro-light-1280', true);

    await t.page.getByRole('button', { name: 'Manage billing' }).click();
    await t.page.waitForURL(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect([...t.stripe.portalSessions.values()].at(-1)).toMatchObject({ customer: done.session.customer });
  }, 120_000);

  it('dark and 390 px', async () => {
    for (const [name, opts] of [['pro-dark-1280', { dark: true }], ['pro-light-390', { width: 390, height: 844 }], ['pro-dark-390', { width: 390, height: 844, dark: true }]] as const) {
      const ctx = await t.w.context(opts);
      const p = await ctx.newPage();
      await signIn(p, t.owner.email, t.owner.password);
      await p.goto('/app/billing');
      await p.getByTestId('current-plan').getByText('PRO plan').waitFor();
      await p.getByTestId('invoices').waitFor();
      const overflow = await p.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
      expect({ name, overflow }).toEqual({ name, overflow: 0 });
      await shoot(p, `billing-${name}`, true);
      await ctx.close();
    }
  }, 120_000);

  it('an Admin sees the plan and the invoices, and no upgrade or manage buttons', async () => {
    const admin = await addMember(t.w.env, t.organizationId, 'ADMIN');
    const ctx = await t.w.context();
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
