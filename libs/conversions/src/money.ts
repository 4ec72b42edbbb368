/** Digits after the decimal point of a currency (ISO 4217 minor units: USD 2, JPY 0, KWD 3). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * A decimal amount in major units as Shopify sends it (`"49.90"`) → an integer of minor units,
 * exactly (no float arithmetic); null when it is not a plain non-negative decimal or has more
 * digits than the currency.
 */
export function toMinorUnits(decimal: unknown, currency: string): number | null {
  const text = typeof decimal === 'number' ? String(decimal) : decimal;
  if (typeof text !== 'string') return null;
  const m = /^(\d{1,13})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return null;
  const digits = minorDigits(currency);
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > digits) return null;
  return Number(m[1] + fraction.padEnd(digits, '0'));
}
