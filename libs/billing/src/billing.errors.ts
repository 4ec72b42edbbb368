import { DomainError, domainError, domainErrorOf } from '@dl/platform/http';

/** Billing is off (no Stripe keys: self-hosted); every billing route answers this. */
export class BillingNotEnabledError extends domainError('BILLING_NOT_ENABLED', 'Billing is not enabled') {}

/** A checkout for the tier the organization already pays for. */
export class AlreadyOnPlanError extends domainErrorOf('ALREADY_ON_PLAN', (tier: string) => `Your organization is already on the ${tier} plan`) {}

/** A checkout while a subscription is live (active, trialing, past due): a second one would bill twice; plans change in the portal. */
export class SubscriptionActiveError extends domainError('SUBSCRIPTION_ACTIVE', 'Subscription already active: change plans in the billing portal') {}

/** The customer portal before any checkout: there is no Stripe customer to manage yet. */
export class NoBillingAccountError extends domainError('NO_BILLING_ACCOUNT', 'Your organization has no billing account yet: choose a plan first') {}

/** Stripe did not answer (unreachable, timeout, its own 5xx or rate limit): nothing was written. */
export class BillingUnavailableError extends DomainError {
  constructor(retryAfter = 30) {
    super('BILLING_UNAVAILABLE', 'Billing is temporarily unavailable, please retry later', { retryAfter, headers: { 'Retry-After': String(retryAfter) } });
  }
}

/** A Stripe webhook whose Stripe-Signature is missing, wrong or outside the 5-minute tolerance. */
export class InvalidStripeSignatureError extends domainError('INVALID_STRIPE_SIGNATURE', 'Invalid signature') {}
