import { parseJsonObjectVariable } from './json-variable';

/** The paid tiers Stripe sells (decisions §21); FREE is what an organization without a subscription has. */
export const BILLABLE_TIERS = ['PRO', 'BUSINESS', 'UNLIMITED'] as const;
export type BillableTier = (typeof BILLABLE_TIERS)[number];
export const BILLING_INTERVALS = ['month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

/** One price of a plan: its Stripe price id and the amount in the currency's minor units. */
export interface StripePrice {
  price: string;
  amount: number;
  currency: string;
}

/** STRIPE_PRICES parsed: tier → interval → price. Only tiers that are sold appear. */
export type StripePrices = Partial<Record<BillableTier, Record<BillingInterval, StripePrice>>>;

/**
 * Parses STRIPE_PRICES (`{"PRO":{"month":{"price":"price_…","amount":1900,"currency":"usd"},"year":{…}}}`);
 * throws an Error naming the first bad entry.
 */
export function parseStripePrices(json: string): StripePrices {
  const raw = parseJsonObjectVariable('STRIPE_PRICES', json, '{"PRO":{"month":{"price":"price_…","amount":1900,"currency":"usd"},"year":{…}}}');
  const out: StripePrices = {};
  const seen = new Set<string>();
  for (const [tier, intervals] of Object.entries(raw)) {
    if (!(BILLABLE_TIERS as readonly string[]).includes(tier)) {
      throw new Error(`STRIPE_PRICES: "${tier}" is not a paid tier (${BILLABLE_TIERS.join(', ')})`);
    }
    if (!intervals || typeof intervals !== 'object' || Array.isArray(intervals)) throw new Error(`STRIPE_PRICES.${tier} must be an object with month and year`);
    const entry = {} as Record<BillingInterval, StripePrice>;
    for (const interval of BILLING_INTERVALS) {
      const p = (intervals as Record<string, unknown>)[interval] as Record<string, unknown> | undefined;
      const at = `STRIPE_PRICES.${tier}.${interval}`;
      if (!p || typeof p !== 'object') throw new Error(`${at} is required`);
      if (typeof p.price !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(p.price)) throw new Error(`${at}.price must be a Stripe price id`);
      if (!Number.isSafeInteger(p.amount) || (p.amount as number) < 0) throw new Error(`${at}.amount must be a whole number of minor units`);
      if (typeof p.currency !== 'string' || !/^[a-z]{3}$/.test(p.currency)) throw new Error(`${at}.currency must be a lower-case ISO 4217 code`);
      if (seen.has(p.price)) throw new Error(`${at}.price ${p.price} is used twice`);
      seen.add(p.price);
      entry[interval] = { price: p.price, amount: p.amount as number, currency: p.currency };
    }
    const extra = Object.keys(intervals).filter((k) => !(BILLING_INTERVALS as readonly string[]).includes(k));
    if (extra.length) throw new Error(`STRIPE_PRICES.${tier}: unknown interval "${extra[0]}"`);
    out[tier as BillableTier] = entry;
  }
  if (!Object.keys(out).length) throw new Error('STRIPE_PRICES must name at least one paid tier');
  return out;
}

/** The billing settings of decisions §21, or null when billing is off (self-hosted: tiers stay operator-set). */
export interface BillingSettings {
  secretKey: string;
  webhookSecret: string;
  prices: StripePrices;
  /** Where the `stripe` client sends requests (tests: a loopback server); unset: Stripe's own API. */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

/** Billing problems of a raw configuration, for loadConfig's list (empty when fine or off). */
export function billingProblems(c: { STRIPE_SECRET_KEY?: string; STRIPE_WEBHOOK_SECRET?: string; STRIPE_PRICES?: string }): string[] {
  const on = [c.STRIPE_SECRET_KEY, c.STRIPE_WEBHOOK_SECRET].filter(Boolean).length;
  if (on === 0) return c.STRIPE_PRICES ? ['STRIPE_PRICES is set but billing is off: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET too'] : [];
  if (on === 1) return [`${c.STRIPE_SECRET_KEY ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is required when ${c.STRIPE_SECRET_KEY ? 'STRIPE_SECRET_KEY' : 'STRIPE_WEBHOOK_SECRET'} is set`];
  if (!c.STRIPE_PRICES) return ['STRIPE_PRICES is required when billing is on'];
  try {
    parseStripePrices(c.STRIPE_PRICES);
    return [];
  } catch (err) {
    return [(err as Error).message];
  }
}

/** The billing settings of a validated config, or null when billing is off. */
export function billingSettings(c: {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_PRICES?: string;
  STRIPE_API_BASE?: string;
}): BillingSettings | null {
  if (!c.STRIPE_SECRET_KEY || !c.STRIPE_WEBHOOK_SECRET || !c.STRIPE_PRICES) return null;
  let apiBase: BillingSettings['apiBase'];
  if (c.STRIPE_API_BASE) {
    const u = new URL(c.STRIPE_API_BASE);
    const protocol = u.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : protocol === 'http' ? 80 : 443 };
  }
  return { secretKey: c.STRIPE_SECRET_KEY, webhookSecret: c.STRIPE_WEBHOOK_SECRET, prices: parseStripePrices(c.STRIPE_PRICES), apiBase };
}
