import { registerValidationMessageRule, ValidationMap } from '@dl/platform/http';
import { URL_MESSAGE } from '@dl/platform/validation';
import { LINK_URL_FIELDS } from '@dl/link-fields';

export const INVALID_URL_MESSAGE = 'Invalid URL format';
export const ATTRIBUTION_WINDOW_MESSAGE = 'Attribution window must be between 1 and 2160 hours';

/**
 * A link URL field's path, whose failure makes the top-level message `Invalid URL format`: a
 * declared URL field, or `variants[1].url`, `redirectRules[0].url` (also inside bulk items).
 */
export const LINK_URL_PATH = new RegExp(`(^|\\.)(${LINK_URL_FIELDS.join('|')}|(variants|redirectRules)\\[\\d+\\]\\.url)$`);

const leaf = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/** The contract's top-level message for a set of failing link fields (decisions §6 order). */
export function linkValidationMessage(validation: ValidationMap): string | undefined {
  const entries = Object.entries(validation);
  if (entries.some(([path, msg]) => LINK_URL_PATH.test(path) && msg === URL_MESSAGE)) return INVALID_URL_MESSAGE;
  if (entries.some(([path]) => leaf(path) === 'attributionWindowHours')) return ATTRIBUTION_WINDOW_MESSAGE;
  return undefined;
}

let registered = false;
/** Registers the link rules with the global validation pipe (idempotent). */
export function registerLinkValidationMessages(): void {
  if (registered) return;
  registered = true;
  registerValidationMessageRule(linkValidationMessage);
}
