import { createHash } from 'node:crypto';
import { ClickFixtures } from '@dl/testing';
import { accountOf, type World } from './world';

/**
 * A BUSINESS organization with leads, sales in USD and EUR and a refund, sent through the tracking
 * API, and Stripe and Shopify connected: what the conversions screenshots show.
 */
export async function seedConversions(w: World, email: string) {
  const { userId, organizationId } = await accountOf(w, email);
  await w.env.prisma.organization.update({ where: { id: organizationId }, data: { tier: 'BUSINESS' } });
  const template = await w.env.prisma.template.findFirstOrThrow({ where: { organizationId } });
  const fx = new ClickFixtures(w.env.prisma).useOwner(organizationId, userId, template.id);
  const key = `dl_${'ab'.repeat(32)}`;
  await w.env.prisma.apiKey.create({
    data: { organizationId, userId: userId, name: 'screens', keyHash: createHash('sha256').update(key).digest('hex'), keyPrefix: key.slice(0, 11) },
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
  // Clicks as the worker rolls them up (today's total and country rows): the funnel starts from them.
  const today = new Date(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  for (const [n, link] of links.entries()) {
    const clicks = [140, 95, 60][n];
    await w.env.prisma.link.update({ where: { id: link.id }, data: { clickCount: clicks } });
    for (const [dimension, value] of [['total', ''], ['country', ['GB', 'US', 'DE'][n]]]) {
      await w.env.prisma.clickRollup.create({ data: { organizationId, linkId: link.id, day: today, dimension, value, clicks } });
    }
  }
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
  const connect = (provider: string, body: object) =>
    fetch(`${w.api.url}/api/integrations/${provider}`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await connect('stripe', { webhookSecret: 'whsec_screens_secret_1' });
  await connect('shopify', { shopDomain: 'trail-outfitters.myshopify.com', webhookSecret: 'shpss_screens_secret_1' });
  return { links, firstCustomer };
}
