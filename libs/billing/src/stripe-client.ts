import { Provider } from '@nestjs/common';
import Stripe from 'stripe';
import { APP_CONFIG, AppConfig, billingSettings, BillingSettings } from '@dl/platform/config';
import { BillingNotEnabledError, BillingUnavailableError } from './billing.errors';

/** The billing settings (null: billing is off) and the official Stripe client built from them. */
export const BILLING_SETTINGS = Symbol('BILLING_SETTINGS');
export const STRIPE_CLIENT = Symbol('STRIPE_CLIENT');

export const billingProviders: Provider[] = [
  { provide: BILLING_SETTINGS, inject: [APP_CONFIG], useFactory: (config: AppConfig) => billingSettings(config) },
  {
    provide: STRIPE_CLIENT,
    inject: [BILLING_SETTINGS],
    useFactory: (settings: BillingSettings | null) =>
      settings
        ? new Stripe(settings.secretKey, {
            ...(settings.apiBase ?? {}),
            // One retry of a dropped connection (with the same idempotency key), then 503 to the caller.
            maxNetworkRetries: 1,
            timeout: 10_000,
            telemetry: false,
            appInfo: { name: 'deeplink' },
          })
        : null,
  },
];

/** The settings of an enabled billing, or 404 `Billing is not enabled`. */
export function requireBilling<T>(value: T | null): T {
  if (!value) throw new BillingNotEnabledError();
  return value;
}

/**
 * Stripe calls: a connection failure, a timeout, Stripe's own 5xx or its rate limit become
 * 503 with Retry-After (the caller may retry; nothing was written); anything else is a bug of
 * ours (a wrong price id, a bad parameter) and stays a 500.
 */
/** Stripe answered that the object does not exist (`resource_missing`): also its answer to canceling a canceled subscription. */
export function isStripeMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeInvalidRequestError && err.code === 'resource_missing';
}

export async function callStripe<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeRateLimitError) throw new BillingUnavailableError();
    if (err instanceof Stripe.errors.StripeAPIError || (err instanceof Stripe.errors.StripeError && (err.statusCode ?? 0) >= 500)) {
      throw new BillingUnavailableError();
    }
    throw err;
  }
}
