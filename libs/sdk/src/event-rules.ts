import { ValidationError, ValidationMap } from '@dl/platform/http';
import { isCurrencyCode } from './currencies';

export const REVENUE_EVENT = 'revenue';

export interface RevenueFields {
  revenue: number | null;
  currency: string | null;
}

/**
 * The revenue convention: an event named `revenue` carries `properties.revenue` (a finite
 * number) and `properties.currency` (an ISO 4217 code). Adds problems to `validation`.
 */
export function revenueFields(
  eventName: string,
  properties: Record<string, unknown> | undefined,
  validation: ValidationMap,
  prefix = '',
): RevenueFields {
  if (eventName !== REVENUE_EVENT) return { revenue: null, currency: null };
  const revenue = properties?.revenue;
  const currency = properties?.currency;
  if (typeof revenue !== 'number' || !Number.isFinite(revenue)) {
    validation[`${prefix}properties.revenue`] = 'Must be a number';
  } else if (Math.abs(revenue) >= 1e14) {
    validation[`${prefix}properties.revenue`] = 'Must be less than 100000000000000 in absolute value';
  }
  if (!isCurrencyCode(currency)) validation[`${prefix}properties.currency`] = 'Must be an ISO 4217 currency code';
  return {
    revenue: typeof revenue === 'number' && Number.isFinite(revenue) ? revenue : null,
    currency: typeof currency === 'string' ? currency : null,
  };
}

export function throwIfInvalid(validation: ValidationMap): void {
  if (Object.keys(validation).length) throw new ValidationError(validation);
}
