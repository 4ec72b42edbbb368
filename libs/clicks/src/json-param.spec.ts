import fc from 'fast-check';
import { jsonBytes, lazyJsonParam } from './click-ingest.repository';

const text = (rows: object[], toRow?: (row: object) => object) => jsonBytes(rows, toRow).toString('utf8');

describe(jsonBytes.name, () => {
  it('is the rows as a JSON array in UTF-8', () => {
    const rows = [{ a: 'x"y\\z', b: null, c: 1.5, d: new Date(0) }, { city: 'Łódź', e: 'İzmir 日本' }];
    expect(JSON.parse(text(rows))).toEqual([{ a: 'x"y\\z', b: null, c: 1.5, d: '1970-01-01T00:00:00.000Z' }, { city: 'Łódź', e: 'İzmir 日本' }]);
    expect(text([])).toBe('[]');
    expect(text([{}])).toBe('[{}]');
  });

  it('is byte for byte the UTF-8 of JSON.stringify of the rows, whatever their text (no NUL)', () => {
    const value = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
    const row = fc.dictionary(fc.string({ unit: 'binary', maxLength: 8 }), value, { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), (rows) => {
        fc.pre(!JSON.stringify(rows).includes('\\u0000'));
        expect(jsonBytes(rows).equals(Buffer.from(JSON.stringify(rows), 'utf8'))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('sends a NUL as the raw byte (Postgres then refuses the parameter as any text with NUL), a literal "\\u0000" text as it is', () => {
    expect(text([{ ua: 'evil\u0000agent' }])).toBe('[{"ua":"evil\u0000agent"}]');
    expect(text([{ ua: 'a\\u0000b' }])).toBe('[{"ua":"a\\\\u0000b"}]');
    expect(text([{ ua: 'a\\\u0000b' }])).toBe('[{"ua":"a\\\\\u0000b"}]');
    expect(text([{ ok: 1 }, { ua: '\u0000' }, { ok: 2 }])).toBe('[{"ok":1},{"ua":"\u0000"},{"ok":2}]');
  });
});

describe(lazyJsonParam.name, () => {
  it('builds the bytes only when the driver asks for them (toPostgres), each time from the rows, with the same NUL rule', () => {
    const mapped: string[] = [];
    const rows = [{ ua: 'evil\u0000agent', n: 1 }];
    const param = lazyJsonParam(rows, (r) => (mapped.push(r.ua), { u: r.ua }));
    expect(mapped).toEqual([]);
    expect(param.toPostgres().toString('utf8')).toBe('[{"u":"evil\u0000agent"}]');
    expect(param.toPostgres().equals(jsonBytes([{ u: 'evil\u0000agent' }]))).toBe(true);
    expect(mapped).toHaveLength(2);
    expect(lazyJsonParam([{ a: null }]).toPostgres().toString('utf8')).toBe('[{"a":null}]');
  });
});
