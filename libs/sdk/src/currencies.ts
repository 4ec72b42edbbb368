/** ISO 4217 codes: one list for SDK revenue events and conversions (libs/platform/validation). */
export { isCurrencyCode } from '@dl/platform/validation';
