import { LINK_FIELD_KEYS, linkField, LinkFieldKeyOf, LinkFieldKind, LinkValues } from '@dl/link-fields';

/** A valid, non-default value of each json field (stored shape). */
const JSON_SAMPLES: { [K in LinkFieldKeyOf<'json'>]: NonNullable<LinkValues[K]> } = {
  utmParameters: { source: 'newsletter', campaign: 'spring' },
  targetingRules: { countries: ['FR'], devices: ['ios'] },
  deepLinkParameters: { product: '42', featured: true },
  variants: [
    { url: 'https://example.com/a', weight: 40 },
    { url: 'https://example.com/b', weight: 60 },
  ],
  redirectRules: [{ conditions: { countries: ['US'] }, url: 'https://example.com/us' }],
};

/**
 * A valid value of every declared link field that differs from its fallback, as the service
 * stores it: what tests walk every field with (a new field is covered by them without a test
 * of its own).
 */
export function sampleLinkValues(): LinkValues {
  const samples: Record<Exclude<LinkFieldKind, 'json'>, (key: string) => unknown> = {
    text: (key) => `Sample ${key}`,
    url: (key) => `https://example.com/${key}`,
    int: (key) => (linkField(key as keyof LinkValues).range as readonly [number, number])[0] + 1,
    boolean: () => true,
    date: () => new Date(Date.UTC(new Date().getUTCFullYear() + 5, 0, 1)),
    tags: (key) => [`${key}-a`, `${key}-b`],
    secret: (key) => `hash-of-${key}`,
  };
  const out: Record<string, unknown> = {};
  for (const key of LINK_FIELD_KEYS) {
    const kind = linkField(key).kind;
    out[key] = kind === 'json' ? JSON_SAMPLES[key as LinkFieldKeyOf<'json'>] : samples[kind](key);
  }
  return out as LinkValues;
}
