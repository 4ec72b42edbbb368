/** ISO 4217 codes known to the runtime's ICU data (about 300, including historic ones). */
const CURRENCIES: ReadonlySet<string> = new Set(
  (Intl as unknown as { supportedValuesOf(key: 'currency'): string[] }).supportedValuesOf('currency'),
);

export function isCurrencyCode(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Z]{3}$/.test(value) && CURRENCIES.has(value);
}
