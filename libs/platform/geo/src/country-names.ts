/** English names of ISO 3166-1 alpha-2 codes (clicks' `countryName`, reports, rollups). */
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Names already asked for (at most 676 two-letter codes): Intl.DisplayNames showed in the worker's profile, once per uncached IP. */
const countryNames = new Map<string, string>();

/** English country name of an ISO 3166-1 alpha-2 code ('' for unknown). */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  const known = countryNames.get(code);
  if (known !== undefined) return known;
  if (!/^[A-Z]{2}$/.test(code)) return '';
  let name: string;
  try {
    name = regionNames.of(code) ?? code;
  } catch {
    name = code;
  }
  countryNames.set(code, name);
  return name;
}
