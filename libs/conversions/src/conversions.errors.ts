import { domainError } from '@dl/platform/http';

/** Exact messages of decisions §23. */
export const ConversionMessages = {
  clickNotFound: 'Click not found',
  customerNotFound: 'Customer not found',
  saleNotFound: 'Sale not found',
  integrationNotFound: 'Integration not found',
  invalidSignature: 'Invalid signature',
  paidPlan: 'Conversions require a paid plan',
} as const;

export class ClickNotFoundError extends domainError('CLICK_NOT_FOUND', ConversionMessages.clickNotFound) {}
export class CustomerNotFoundError extends domainError('CUSTOMER_NOT_FOUND', ConversionMessages.customerNotFound) {}
export class SaleNotFoundError extends domainError('SALE_NOT_FOUND', ConversionMessages.saleNotFound) {}
export class IntegrationNotFoundError extends domainError('INTEGRATION_NOT_FOUND', ConversionMessages.integrationNotFound) {}
/** Stripe's endpoint: a missing or wrong `Stripe-Signature` (400, as Stripe's own libraries answer). */
export class InvalidStripeSignatureError extends domainError('INVALID_INTEGRATION_SIGNATURE', ConversionMessages.invalidSignature) {}
/** Shopify's endpoint: a missing or wrong `X-Shopify-Hmac-Sha256` (401, as Shopify documents). */
export class InvalidShopifySignatureError extends domainError('INVALID_SHOPIFY_SIGNATURE', ConversionMessages.invalidSignature) {}
