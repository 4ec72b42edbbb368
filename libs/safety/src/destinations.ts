/** A link's destination fields as they are stored (decisions §22 screens every one of them). */
export interface LinkDestinations {
  originalUrl?: string | null;
  iosUrl?: string | null;
  androidUrl?: string | null;
  webFallbackUrl?: string | null;
  expiredUrl?: string | null;
  variants?: ReadonlyArray<{ url?: string | null } | null> | null;
  redirectRules?: ReadonlyArray<{ url?: string | null } | null> | null;
}

/** Every destination of a link with the field that holds it (`variants[1].url`, `redirectRules[0].url`). */
export function destinationsOf(values: LinkDestinations): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const field of ['originalUrl', 'iosUrl', 'androidUrl', 'webFallbackUrl', 'expiredUrl'] as const) {
    const url = values[field];
    if (typeof url === 'string' && url) out.push([field, url]);
  }
  for (const [i, v] of (Array.isArray(values.variants) ? values.variants : []).entries()) if (typeof v?.url === 'string' && v.url) out.push([`variants[${i}].url`, v.url]);
  for (const [i, r] of (Array.isArray(values.redirectRules) ? values.redirectRules : []).entries()) if (typeof r?.url === 'string' && r.url) out.push([`redirectRules[${i}].url`, r.url]);
  return out;
}
