import { ConfigError, loadConfig } from './config';
import { billingSettings, parseStripePrices } from './stripe-prices';

const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/x' };
const PRICES = {
  PRO: { month: { price: 'price_pro_m', amount: 1900, currency: 'usd' }, year: { price: 'price_pro_y', amount: 19000, currency: 'usd' } },
};
const ON = { STRIPE_SECRET_KEY: 'sk_test_0123456789', STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef', STRIPE_PRICES: JSON.stringify(PRICES) };

function problems(raw: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...raw });
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.join('\n');
    throw err;
  }
  return '';
}

describe(parseStripePrices.name, () => {
  it('parses every tier and interval', () => {
    expect(parseStripePrices(JSON.stringify(PRICES))).toEqual(PRICES);
  });

  it.each([
    ['not json', /must be JSON/],
    ['[]', /must be a JSON object/],
    ['{}', /at least one paid tier/],
    [JSON.stringify({ FREE: PRICES.PRO }), /"FREE" is not a paid tier/],
    [JSON.stringify({ PRO: { month: PRICES.PRO.month } }), /STRIPE_PRICES\.PRO\.year is required/],
    [JSON.stringify({ PRO: { ...PRICES.PRO, week: PRICES.PRO.month } }), /unknown interval "week"/],
    [JSON.stringify({ PRO: { ...PRICES.PRO, month: { ...PRICES.PRO.month, amount: 19.5 } } }), /PRO\.month\.amount must be a whole number/],
    [JSON.stringify({ PRO: { ...PRICES.PRO, year: { ...PRICES.PRO.year, currency: 'USD' } } }), /PRO\.year\.currency must be a lower-case/],
    [JSON.stringify({ PRO: { ...PRICES.PRO, year: { ...PRICES.PRO.year, price: 'price_pro_m' } } }), /used twice/],
    [JSON.stringify({ PRO: { ...PRICES.PRO, year: { ...PRICES.PRO.year, price: 'a b' } } }), /price must be a Stripe price id/],
  ])('refuses %s', (json, message) => {
    expect(() => parseStripePrices(json)).toThrow(message);
  });
});

describe('billing configuration at boot', () => {
  it('is off without the Stripe keys', () => {
    expect(billingSettings(loadConfig(base))).toBeNull();
  });

  it('is on with both keys and prices, pointed at STRIPE_API_BASE', () => {
    const settings = billingSettings(loadConfig({ ...base, ...ON, STRIPE_API_BASE: 'http://127.0.0.1:4242' }));
    expect(settings).toEqual({
      secretKey: ON.STRIPE_SECRET_KEY,
      webhookSecret: ON.STRIPE_WEBHOOK_SECRET,
      prices: PRICES,
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 4242 },
    });
    expect(billingSettings(loadConfig({ ...base, ...ON }))?.apiBase).toBeUndefined();
  });

  it('names what is missing or wrong', () => {
    expect(problems({ STRIPE_SECRET_KEY: ON.STRIPE_SECRET_KEY })).toBe('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
    expect(problems({ STRIPE_WEBHOOK_SECRET: ON.STRIPE_WEBHOOK_SECRET })).toBe('STRIPE_SECRET_KEY is required when STRIPE_WEBHOOK_SECRET is set');
    expect(problems({ STRIPE_SECRET_KEY: ON.STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET: ON.STRIPE_WEBHOOK_SECRET })).toBe('STRIPE_PRICES is required when billing is on');
    expect(problems({ STRIPE_PRICES: ON.STRIPE_PRICES })).toMatch(/billing is off/);
    expect(problems({ ...ON, STRIPE_PRICES: '{"PRO":1}' })).toMatch(/STRIPE_PRICES\.PRO must be an object/);
    expect(problems({ ...ON, STRIPE_SECRET_KEY: 'pk_test_123456789' })).toMatch(/STRIPE_SECRET_KEY must be a Stripe secret key/);
    expect(problems({ ...ON, STRIPE_WEBHOOK_SECRET: 'secret' })).toMatch(/STRIPE_WEBHOOK_SECRET must be a Stripe webhook signing secret/);
    expect(problems({ ...ON, STRIPE_API_BASE: 'ftp://x' })).toMatch(/STRIPE_API_BASE/);
  });
});
