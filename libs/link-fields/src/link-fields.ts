import { LinkFieldKind, LinkFieldSpec, LinkFieldValue, shape } from './link-field';
import { DeepLinkParameters, LinkVariant, RedirectRule, TargetingRules, UtmParameters } from './link-shapes';

/**
 * Every editable field of a link, declared once: its column, kind (which sets its SQL type,
 * input rule and API schema), fallback, limits, and whether the edge caches it and which CSV
 * columns import it. The API's column lists, input DTO, read shapes, URL and length lists, the
 * CSV import and the redirect's snapshot are derived from it. The order is the API's order.
 *
 * A new field: one entry here and its column in prisma/schema.prisma (plus a migration), then
 * `npm run openapi:generate`. A json field also needs its input rules (libs/links
 * link-fields.dto.ts), its read schema (link-response.dto.ts) and, at the edge, its reader
 * (libs/redirect redirect-link.ts): each is a map typed by the json fields, so the compiler asks
 * for them. The dashboard's link form does not compile until it edits the new field.
 */
export const LINK_FIELDS = {
  originalUrl: {
    kind: 'url',
    column: 'original_url',
    fallback: '',
    edge: true,
    csv: ['originalUrl', 'url', 'destination', 'destinationUrl'],
    example: 'https://example.com/landing',
  },
  title: { kind: 'text', column: 'title', maxLength: 500, edge: true, csv: ['title'] },
  description: { kind: 'text', column: 'description', maxLength: 2000, csv: ['description'] },
  iosUrl: { kind: 'url', column: 'ios_url', edge: true, csv: ['iosUrl'], description: 'Destination on iOS' },
  androidUrl: { kind: 'url', column: 'android_url', edge: true, csv: ['androidUrl'], description: 'Destination on Android' },
  webFallbackUrl: { kind: 'url', column: 'web_fallback_url', edge: true, csv: ['webUrl', 'webFallbackUrl'], description: 'Destination on other devices' },
  attributionWindowHours: {
    kind: 'int',
    column: 'attribution_window_hours',
    range: [1, 2160],
    message: 'Must be between 1 and 2160',
    fallback: 168,
  },
  utmParameters: { kind: 'json', column: 'utm_parameters', shape: shape<UtmParameters>(), edge: true },
  targetingRules: { kind: 'json', column: 'targeting_rules', shape: shape<TargetingRules>(), edge: true },
  deepLinkParameters: { kind: 'json', column: 'deep_link_parameters', shape: shape<DeepLinkParameters>(), example: { product: '42' } },
  deepLinkPath: { kind: 'text', column: 'deep_link_path', maxLength: 500, csv: ['deepLinkPath'], example: 'product/42' },
  appScheme: { kind: 'text', column: 'app_scheme', maxLength: 100, example: 'myapp' },
  iosUniversalLink: { kind: 'url', column: 'ios_universal_link' },
  androidAppLink: { kind: 'url', column: 'android_app_link' },
  ogTitle: { kind: 'text', column: 'og_title', maxLength: 300, edge: true },
  ogDescription: { kind: 'text', column: 'og_description', maxLength: 1000, edge: true },
  ogImageUrl: { kind: 'url', column: 'og_image_url', edge: true },
  tags: { kind: 'tags', column: 'tags', fallback: [], csv: ['tags'], description: 'Trimmed; case-insensitively unique' },
  expiresAt: { kind: 'date', column: 'expires_at', edge: true, description: 'When the link expires (ISO 8601; a new value must be in the future)' },
  /** scrypt hash of the visitor password: requests give `password`, reads show `hasPassword`. */
  passwordHash: { kind: 'secret', column: 'password_hash', edge: true },
  expiredUrl: {
    kind: 'url',
    column: 'expired_url',
    edge: true,
    csv: ['expiredUrl'],
    description: 'Where an expired link (by date or clicks) sends visitors instead of the 410 page',
  },
  maxClicks: {
    kind: 'int',
    column: 'max_clicks',
    range: [1, 1_000_000_000],
    message: 'Must be an integer between 1 and 1000000000',
    edge: true,
    csv: ['maxClicks'],
    description: 'The link expires after this many non-bot clicks',
  },
  variants: {
    kind: 'json',
    column: 'variants',
    shape: shape<LinkVariant[]>(),
    edge: true,
    csv: ['variants'],
    description: 'A/B test: weights sum to 100',
  },
  redirectRules: {
    kind: 'json',
    column: 'redirect_rules',
    shape: shape<RedirectRule[]>(),
    edge: true,
    csv: ['redirectRules', 'rules'],
    description: 'Ordered; the first matching rule wins',
  },
  cloak: {
    kind: 'boolean',
    column: 'cloak',
    fallback: false,
    edge: true,
    csv: ['cloak'],
    description: 'Show web destinations in a full-page frame under the short URL',
  },
  publicStats: {
    kind: 'boolean',
    column: 'public_stats',
    fallback: false,
    edge: true,
    csv: ['publicStats'],
    description: 'Public stats page at /<code>+ and /api/public/stats/<domain>/<code>',
  },
} as const satisfies Record<string, LinkFieldSpec>;

type Fields = typeof LINK_FIELDS;
export type LinkFieldKey = keyof Fields;

/** The normalized values of a link's editable fields (what create, update and defaults resolve to). */
export type LinkValues = { -readonly [K in LinkFieldKey]: LinkFieldValue<Fields[K]> };

/** The fields of some kinds. */
export type LinkFieldKeyOf<Kind extends LinkFieldKind> = { [K in LinkFieldKey]: Fields[K]['kind'] extends Kind ? K : never }[LinkFieldKey];
/** The fields the edge caches. */
export type EdgeFieldKey = { [K in LinkFieldKey]: Fields[K] extends { edge: true } ? K : never }[LinkFieldKey];

/** A field's declaration, read as the general shape (for code that walks every field). */
export const linkField = (key: LinkFieldKey): LinkFieldSpec => LINK_FIELDS[key];

export const LINK_FIELD_KEYS = Object.keys(LINK_FIELDS) as LinkFieldKey[];

const keysWhere = <K extends LinkFieldKey>(test: (f: LinkFieldSpec) => boolean): readonly K[] =>
  LINK_FIELD_KEYS.filter((k) => test(linkField(k))) as K[];

/** Every field but the secret: requests set them, reads show them. */
export const LINK_PUBLIC_FIELDS = keysWhere<Exclude<LinkFieldKey, LinkFieldKeyOf<'secret'>>>((f) => f.kind !== 'secret');
/** Destination and image URL fields: validated as http(s) URLs, stored in their WHATWG form (decisions §14). */
export const LINK_URL_FIELDS = keysWhere<LinkFieldKeyOf<'url'>>((f) => f.kind === 'url');
/** True/false fields (null in a request: back to the fallback). */
export const LINK_BOOLEAN_FIELDS = keysWhere<LinkFieldKeyOf<'boolean'>>((f) => f.kind === 'boolean');
/** Fields the redirect's snapshot carries. */
export const LINK_EDGE_FIELDS = keysWhere<EdgeFieldKey>((f) => f.edge === true);

/** Text fields → their length limit. */
export const LINK_STRING_MAX: Readonly<Partial<Record<LinkFieldKey, number>>> = Object.fromEntries(
  LINK_FIELD_KEYS.flatMap((k) => {
    const max = linkField(k).maxLength;
    return max === undefined ? [] : [[k, max]];
  }),
);

/** A CSV header as the import compares it: lower case, letters, digits, `$` and `~` only. */
export const normalizeCsvHeader = (header: string): string => header.toLowerCase().replace(/[^a-z0-9$~]/g, '');

/** The CSV import's header names (normalized) → the field each fills. */
export const LINK_CSV_COLUMNS: Readonly<Record<string, LinkFieldKey>> = Object.fromEntries(
  LINK_FIELD_KEYS.flatMap((k) => (linkField(k).csv ?? []).map((name) => [normalizeCsvHeader(name), k])),
);
