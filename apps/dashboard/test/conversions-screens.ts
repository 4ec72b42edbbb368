/**
 * Screenshots of the conversions pages (decisions §23) in light and dark, at 1280 px and 390 px,
 * into docs/screenshots/: the Conversions page, a customer's timeline, the Integrations page and
 * a link page with its conversions. Leads and sales go through the tracking API.
 *
 *   node tools/scripts/run.js apps/dashboard/test/conversions-screens.ts
 */
import { join } from 'node:path';
import { ClickFixtures } from '@dl/testing';
import { screenshotScript } from './world';

const root = join(__dirname, '..', '..', '..');
const out = join(root, 'docs', 'screenshots');

screenshotScript(
  'conversions screenshots',
  out,
  async (w, _page, { email }) => {
    const user = await w.env.prisma.user.findFirstOrThrow({ where: { email }, select: { id: true } });
    const { organizationId } = await w.env.prisma.membership.findFirstOrThrow({ where: { userId: user.id } });
    await w.env.prisma.organization.update({ where: { id: organizationId }, data: { tier: 'BUSINESS' } });
    const template = await w.env.prisma.template.findFirstOrThrow({ where: { organizationId } });
    const fx = new ClickFixtures(w.env.prisma).useOwner(organizationId, user.id, template.id);
    const key = `dl_${'ab'.repeat(32)}`;
    const { createHash } = await import('node:crypto');
    await w.env.prisma.apiKey.create({
      data: { organizationId, userId: user.id, name: 'screens', keyHash: createHash('sha256').update(key).digest('hex'), keyPrefix: key.slice(0, 11) },
    });
    const track = async (path: string, body: object) => {
      const res = await fetch(`${w.api.url}/api/track/${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ customer?: { id: string } }>;
    };
    const links = [
      await fx.link(organizationId, { title: 'Spring collection' }),
      await fx.link(organizationId, { title: 'Trail boots launch' }),
      await fx.link(organizationId, { title: 'Newsletter: packs' }),
    ];
    const people = ['Ada Park', 'Bo Lind', 'Cy Moreau', 'Dee Okafor', 'Eli Sato', 'Fay Novak', 'Gus Alvarez', 'Hana Berg'];
    let firstCustomer = '';
    for (const [i, name] of people.entries()) {
      const link = links[i % links.length];
      const click = await fx.click({ id: link.id, organizationId }, { countryCode: ['GB', 'US', 'DE', 'FR'][i % 4] });
      const lead = await track('lead', { clickId: click.id, eventName: 'Sign up', customerExternalId: `user_${100 + i}`, customerName: name, customerEmail: `${name.split(' ')[0].toLowerCase()}@example.com` });
      firstCustomer ||= lead.customer!.id;
      if (i % 3 !== 2) await track('sale', { customerExternalId: `user_${100 + i}`, amount: 4900 + i * 1250, currency: i % 2 ? 'EUR' : 'USD', invoiceId: `in_${i}` });
      if (i === 0) await track('sale', { customerExternalId: 'user_100', amount: 12900, currency: 'USD', invoiceId: 'in_0b' });
    }
    await track('refund', { invoiceId: 'in_0', amount: 1500 });
    await fetch(`${w.api.url}/api/integrations/stripe`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ webhookSecret: 'whsec_screens_secret_1' }) });
    return { links, firstCustomer };
  },
  async ({ page: p, name }, { links, firstCustomer }) => {
    const settle = async () => {
      await p.locator('.loading').first().waitFor({ state: 'detached' });
      await p.waitForTimeout(400);
    };
    await p.goto('/app/conversions');
    await p.getByRole('heading', { name: 'Revenue by currency' }).waitFor();
    await settle();
    await p.screenshot({ path: name('conversions'), fullPage: true });
    await p.goto(`/app/conversions/customers/${firstCustomer}`);
    await p.getByRole('heading', { name: 'Timeline' }).waitFor();
    await settle();
    await p.screenshot({ path: name('customer'), fullPage: true });
    await p.goto('/app/integrations');
    await p.getByRole('heading', { name: 'Stripe' }).waitFor();
    await settle();
    await p.screenshot({ path: name('integrations'), fullPage: true });
    await p.goto(`/app/links/${links[0].id}?days=30`);
    await p.getByTestId('link-sales').waitFor();
    await settle();
    await p.screenshot({ path: name('link-conversions') });
  },
);
