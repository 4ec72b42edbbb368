import { Injectable } from '@nestjs/common';
import { ValidationError, ValidationMap } from '@dl/platform/http';
import { destinationsOf, SafetyService, SafetyStatus, Verdict, worst } from '@dl/safety';
import { LinkValues } from './link.types';

export { destinationsOf };

/** What a link stores of its screening (decisions §22). */
export interface LinkSafety {
  safetyStatus: SafetyStatus;
  safetyReason: string | null;
  /** Null until every lookup answered (Safe Browsing unreachable: the worker re-checks it). */
  safetyCheckedAt: Date | null;
}

type Destinations = Pick<LinkValues, 'originalUrl' | 'iosUrl' | 'androidUrl' | 'webFallbackUrl' | 'expiredUrl' | 'variants' | 'redirectRules'>;

const DESTINATION_FIELDS = ['originalUrl', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'expiredUrl', 'variants', 'redirectRules'] as const;

/** Whether a patch changes any destination (then the whole link is screened again). */
export function touchesDestinations(patch: object): boolean {
  return DESTINATION_FIELDS.some((f) => (patch as Record<string, unknown>)[f] !== undefined);
}

/** A link's destinations after a patch: the patch's values over the current ones. */
export function mergedDestinations(current: Partial<Destinations>, patch: Partial<Destinations>): Partial<Destinations> {
  const out: Record<string, unknown> = {};
  for (const f of DESTINATION_FIELDS) out[f] = (patch as Record<string, unknown>)[f] !== undefined ? (patch as Record<string, unknown>)[f] : (current as Record<string, unknown>)[f];
  return out as Partial<Destinations>;
}

/** The 400 of a blocked destination: `validation.<field> = Destination blocked: <reason>`. */
export function blockedError(blocked: Array<[string, Verdict]>): ValidationError {
  const validation: ValidationMap = {};
  for (const [field, v] of blocked) validation[field] = `Destination blocked: ${v.reason}`;
  return new ValidationError(validation);
}

/**
 * Screens a link's destinations for create, update, bulk and import: a blocked one refuses the
 * link (400); a suspicious one is stored with the link and answered by the warning page.
 */
@Injectable()
export class LinkScreening {
  constructor(private readonly safety: SafetyService) {}

  /** The safety of each link's values, in order; throws the 400 of the first link with a blocked destination (`path(i)` names it in a batch). */
  async screenAll(items: ReadonlyArray<Partial<Destinations>>): Promise<Array<LinkSafety | Array<[string, Verdict]>>> {
    const fields = items.map(destinationsOf);
    const verdicts = await this.safety.screen(fields.flat().map(([, url]) => url));
    const now = new Date();
    let k = 0;
    return fields.map((list) => {
      const mine = list.map(([field]): [string, Verdict] => [field, verdicts[k++]]);
      const blocked = mine.filter(([, v]) => v.status === 'blocked');
      if (blocked.length) return blocked;
      const v = worst(mine.map(([, x]) => x));
      return { safetyStatus: v.status, safetyReason: v.reason, safetyCheckedAt: mine.some(([, x]) => x.pending) ? null : now };
    });
  }

  /** One link's safety; a blocked destination → 400. */
  async screenOne(values: Partial<Destinations>): Promise<LinkSafety> {
    const [result] = await this.screenAll([values]);
    if (Array.isArray(result)) throw blockedError(result);
    return result;
  }
}
