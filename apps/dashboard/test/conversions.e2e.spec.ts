import { Page } from 'playwright-core';
import { seedConversions } from './conversions-seed';
import { browserSuite, signIn, signUp, World } from './world';

/** An element's text with its whitespace folded to single spaces. */
const textOf = async (page: Page, selector: string) => (await page.locator(selector).first().innerText()).replace(/\s+/g, ' ').trim();

// Decisions §23 in Chromium: the Conversions page (funnel, revenue per currency, breakdown,
// customers and a customer's timeline), a link page's conversions and the Integrations page.
describe('dashboard: Conversions and Integrations (Chromium)', () => {
  let w: World, first: Page;
  browserSuite((s) => ({ w, page: first } = s));

  it('shows the funnel, revenue per currency, the breakdown, customers and a timeline; the link page its conversions; the Integrations page both endpoints to copy', async () => {
    const { email, password } = await signUp(first, 'Northwind Outdoor');
    const { links, firstCustomer } = await seedConversions(w, email);
    // The seed moved the organization to a paid plan behind the API's back: a new session sees it.
    const context = await w.context();
    const page = await context.newPage();
    await signIn(page, email, password);

    await page.goto('/app/conversions');
    await page.getByRole('heading', { name: 'Revenue by currency' }).waitFor();
    const funnel = await textOf(page, '[aria-label="Funnel"]');
    for (const part of ['Clicks 295', 'Leads 8', 'Sales 7', '75% of customers bought', 'Customers 8']) expect([part, funnel.includes(part)]).toEqual([part, true]);
    const revenue = page.locator('.card', { has: page.getByRole('heading', { name: 'Revenue by currency' }) }).locator('tbody tr');
    expect(await revenue.allInnerTexts()).toEqual(['USD\t$401.00\t$15.00\t$386.00', 'EUR\t€284.50\t€0.00\t€284.50']);

    const breakdown = page.getByRole('table', { name: 'Conversions breakdown' });
    await breakdown.getByRole('link', { name: 'Spring collection' }).waitFor();
    expect((await breakdown.locator('tbody tr').first().innerText()).split('\t')).toEqual(['Spring collection', '140', '3', '4', '$287.00 · €86.50']);
    await page.getByRole('button', { name: 'By source' }).click();
    await breakdown.getByRole('cell', { name: 'api', exact: true }).waitFor();
    expect((await breakdown.locator('tbody tr').first().innerText()).split('\t').slice(0, 4)).toEqual(['api', '—', '8', '7']);

    await page.getByLabel('Search customers').fill('hana');
    const customers = page.getByRole('table', { name: 'Customers' });
    await customers.getByRole('link', { name: 'Gus Alvarez' }).waitFor({ state: 'detached' });
    await customers.getByRole('link', { name: 'Hana Berg' }).waitFor();
    expect(await customers.locator('tbody tr').count()).toBe(1);
    await page.getByLabel('Search customers').fill('');
    await customers.getByRole('link', { name: 'Ada Park' }).click();
    await page.waitForURL(`**/app/conversions/customers/${firstCustomer}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    const timeline = (await page.locator('ol.timeline li').allInnerTexts()).map((t) => t.replace(/^.*?(Lead|Sale|Refund)/, '$1'));
    expect(timeline).toEqual(['Lead Sign up', 'Sale Purchase $49.00 · in_0 · api', 'Sale Purchase $129.00 · in_0b · api', 'Refund −$15.00 · in_0']);

    await page.goto(`/app/links/${links[0].id}?days=30`);
    expect([await page.getByTestId('link-leads').innerText(), await page.getByTestId('link-sales').innerText()]).toEqual(['3', '4']);

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/app/integrations');
    await page.getByRole('heading', { name: 'Shopify' }).waitFor();
    const urls = await page.locator('.copy-row code').allInnerTexts();
    expect(urls).toEqual([expect.stringMatching(/\/integrations\/stripe\/[0-9a-f]{64}$/), expect.stringMatching(/\/integrations\/shopify\/[0-9a-f]{64}$/)]);
    const copy = page.getByRole('button', { name: 'Copy URL' });
    expect(await copy.count()).toBe(2);
    await copy.nth(1).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(urls[1]);
    await page.getByRole('button', { name: 'Copied' }).waitFor({ state: 'detached' }); // back to its label after 2 s
    expect(await copy.count()).toBe(2);
    await context.close();
  }, 120_000);
});
