import { validateHeaderValue } from 'node:http';
import fc from 'fast-check';
import { DomainError, ValidationError } from './errors';
import { findUnstorableText, hasUnstorableText, normalizeUrl, safeHeaderUrl, stripUnstorable, toStorableJson } from './hostile-text';
import { refuseUnstorableText } from './validation.pipe';

/** Any UTF-16 units: lone surrogates, NUL, every control character. */
export const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 }).map((u) => String.fromCharCode(...u));
/** Code points, controls and the characters that matter in URLs and headers, mixed. */
const hostileText = fc.oneof(
  anyUnits,
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.stringMatching(/^[\u0000-\u001f\u007f-\u00ff%:/?#[\]@!$&'()*+,;=€é\ud800\udc00 \t\r\n]{0,40}$/),
  fc.constantFrom('\u0000', '\ud800', '\udfff', '\udbff\udfff', 'x\u0000y', '\r\n', 'é', '€'),
);
const urlLike = fc.oneof(
  fc.tuple(fc.constantFrom('https://', 'http://', 'HTTPS://', ' https://', 'ftp://', 'javascript:', '', '//'), hostileText, hostileText).map(([s, h, p]) => `${s}${h}/${p}`),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  hostileText,
);

function headerOk(value: string): boolean {
  try {
    validateHeaderValue('location', value);
    return true;
  } catch {
    return false;
  }
}

describe('hostile text (property-based, decisions §14)', () => {
  it('normalizeUrl never throws; what parses comes back as its own WHATWG href (idempotent, ASCII)', () => {
    fc.assert(
      fc.property(urlLike, (v) => {
        const n = normalizeUrl(v);
        let parsed: URL | null = null;
        try {
          parsed = new URL(v);
        } catch {
          /* not a URL */
        }
        if (parsed) {
          expect(n).toBe(parsed.href);
          expect(normalizeUrl(n)).toBe(n);
          // http(s) (the only schemes stored): always visible ASCII. Others may keep spaces in an opaque path.
          if (parsed.protocol === 'http:' || parsed.protocol === 'https:') expect(/^[\x21-\x7e]*$/.test(n)).toBe(true);
        } else expect(n).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });

  it('safeHeaderUrl always gives a value Node writes in a header, and keeps a valid ASCII URL as is', () => {
    fc.assert(
      fc.property(urlLike, (v) => {
        const out = safeHeaderUrl(v);
        expect(headerOk(out)).toBe(true);
        expect(/^[\x21-\x7e]*$/.test(out)).toBe(true);
        if (/^[\x21-\x7e]+$/.test(v)) expect(out).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });

  it('safeHeaderUrl and stripUnstorable handle huge values quickly', () => {
    for (const v of ['a'.repeat(200_000), '€'.repeat(100_000), '\u0000'.repeat(50_000), '\ud800'.repeat(50_000), `https://example.com/${'é'.repeat(100_000)}`]) {
      const started = Date.now();
      expect(headerOk(safeHeaderUrl(v))).toBe(true);
      expect(hasUnstorableText(stripUnstorable(v))).toBe(false);
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  it('stripUnstorable leaves nothing Postgres refuses, and changes nothing else', () => {
    fc.assert(
      fc.property(hostileText, (v) => {
        const out = stripUnstorable(v);
        expect(hasUnstorableText(out)).toBe(false);
        expect(Buffer.from(out, 'utf8').toString('utf8')).toBe(out);
        if (!hasUnstorableText(v)) expect(out).toBe(v);
      }),
      { numRuns: 2000 },
    );
  });

  const oddJson = fc.oneof(
    fc.jsonValue(),
    fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }),
    fc.dictionary(hostileText, fc.oneof(hostileText, fc.jsonValue()), { maxKeys: 5 }),
    fc.array(fc.dictionary(hostileText, hostileText, { maxKeys: 3 }), { maxLength: 5 }).map((events) => ({ events })),
    fc.letrec((tie) => ({ node: fc.oneof({ depthSize: 'small' }, hostileText, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(hostileText, tie('node'), { maxKeys: 3 })) })).node,
  );

  it('toStorableJson makes any value storable as jsonb (no NUL, no lone surrogate, serialisable)', () => {
    fc.assert(
      fc.property(oddJson, (v) => {
        const json = JSON.stringify(toStorableJson(v));
        expect(json).toBeDefined();
        expect(json.includes('\\u0000')).toBe(false);
        expect(findUnstorableText(JSON.parse(json))).toBeNull();
      }),
      { numRuns: 1000 },
    );
  });

  it('toStorableJson keeps a key named __proto__ as a key: the copy’s prototype stays Object’s', () => {
    const copy = toStorableJson(JSON.parse('{"":{"__proto__":{"constructor":"\\u0000\\u0001"}}}')) as Record<string, object>;
    expect(Object.getPrototypeOf(copy['']) as unknown).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"":{"__proto__":{"constructor":"\\u0001"}}}');
  });

  it('the edge check finds exactly the bodies holding unstorable text, and throws nothing but a ValidationError', () => {
    fc.assert(
      fc.property(oddJson, fc.constantFrom('body', 'query', 'param') as fc.Arbitrary<'body' | 'query' | 'param'>, (v, type) => {
        const found = findUnstorableText(v);
        const bad = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))?.match(/\\u0000|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/) ?? null;
        if (v !== null && typeof v === 'object' && !(v instanceof Map) && !(v instanceof Set) && !ArrayBuffer.isView(v)) {
          // JSON-shaped values: the check agrees with what JSON.stringify escapes.
          if (bad === null) expect(found).toBeNull();
        }
        try {
          refuseUnstorableText(v, { type, metatype: undefined });
          expect(found === null || type === 'param').toBe(true);
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect(err).toBeInstanceOf(DomainError);
          expect(Object.keys((err as ValidationError).options.validation ?? {})).toEqual([found]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
