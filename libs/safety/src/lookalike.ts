/**
 * The built-in rules on the host of a destination (decisions §22): a label mixing scripts
 * (Latin with Cyrillic or Greek, the classic homograph), or a name whose skeleton (confusable
 * letters folded to the Latin they imitate, accents dropped, digits read as letters) is a
 * protected brand's name while the host is not that brand's own domain. Both are suspicious,
 * not blocked: real IDN names exist and a person decides at the warning page.
 */
import { domainToUnicode } from 'node:url';

/** Letters of other scripts that render like Latin ones (a subset of Unicode's confusables.txt). */
const CONFUSABLE: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g', ү: 'y', ь: 'b',
  // Greek
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w',
  // Latin look-alikes outside ASCII
  ı: 'i', ł: 'l', ø: 'o', đ: 'd', ħ: 'h', ŀ: 'l', ſ: 's', ɑ: 'a', ɩ: 'i', ɪ: 'i', ʏ: 'y',
};
/** Digits and pairs read as letters in ASCII look-alikes (paypa1, rnicrosoft). */
const ASCII_TRICKS: Array<[RegExp, string]> = [
  [/0/g, 'o'],
  [/1/g, 'l'],
  [/rn/g, 'm'],
  [/vv/g, 'w'],
];

/** A name folded to what it looks like in Latin letters. */
export function skeleton(label: string): string {
  let out = '';
  if (/^[\x00-\x7f]*$/.test(label)) out = label.toLowerCase();
  else
    for (const ch of label.normalize('NFKD').toLowerCase()) {
      if (/\p{M}/u.test(ch)) continue;
      out += CONFUSABLE[ch] ?? ch;
    }
  for (const [from, to] of ASCII_TRICKS) out = out.replace(from, to);
  return out.replace(/-/g, '');
}

type Script = 'Latin' | 'Cyrillic' | 'Greek' | 'Other';

function scriptOf(ch: string): Script | null {
  if (/[0-9\-_]/.test(ch)) return null;
  if (/\p{Script=Latin}/u.test(ch)) return 'Latin';
  if (/\p{Script=Cyrillic}/u.test(ch)) return 'Cyrillic';
  if (/\p{Script=Greek}/u.test(ch)) return 'Greek';
  return 'Other';
}

/** Whether a label mixes Latin with Cyrillic or Greek letters. */
export function mixesScripts(label: string): boolean {
  const seen = new Set<Script>();
  for (const ch of label) {
    const s = scriptOf(ch);
    if (s) seen.add(s);
  }
  return seen.has('Latin') && (seen.has('Cyrillic') || seen.has('Greek'));
}

/** A brand of PROTECTED_BRANDS: its name (first label) and its own domain. */
export interface Brand {
  name: string;
  domain: string;
}

/** `paypal.com,google.com` → brands; a bare name (`paypal`) protects that name on any domain. */
export function parseBrands(list: string | undefined): Brand[] {
  return (list ?? '')
    .split(',')
    .map((b) => b.trim().toLowerCase())
    .filter(Boolean)
    .map((b) => ({ name: b.split('.')[0], domain: b.includes('.') ? b : '' }));
}

/** The suspicious reason of a host (ASCII/punycode), or null. */
export function lookalikeReason(asciiHost: string, brands: Brand[]): string | null {
  if (asciiHost.startsWith('[') || /^\d+\.\d+\.\d+\.\d+$/.test(asciiHost)) return null;
  if (!brands.length && !asciiHost.includes('xn--')) return null;
  // Only punycode labels can hold other scripts: plain ASCII hosts skip the Unicode work.
  const unicode = asciiHost.includes('xn--') ? domainToUnicode(asciiHost) || asciiHost : asciiHost;
  const labels = unicode.split('.');
  if (unicode !== asciiHost && labels.some(mixesScripts)) return 'mixed scripts';
  // The registrable-looking part: every label but the last (the TLD), each compared.
  for (const brand of brands) {
    if (brand.domain && (asciiHost === brand.domain || asciiHost.endsWith(`.${brand.domain}`))) continue;
    for (const label of labels.slice(0, -1)) {
      if (label === brand.name && !brand.domain) continue;
      if (label !== brand.name && skeleton(label) === brand.name) return `look-alike of ${brand.domain || brand.name}`;
    }
  }
  return null;
}
