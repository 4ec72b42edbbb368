import fc from 'fast-check';
import { copyBytes, copyText, jsonBytes, lazyJsonParam, utf8Bytes } from './pg-encoding';

/** COPY's text-format reading of one field (what Postgres does with what copyText wrote). */
function readField(field: string): string | null {
  if (field === '\\N') return null;
  return field.replace(/\\(.)/gs, (_, ch: string) => ({ t: '\t', n: '\n', r: '\r', '\\': '\\' })[ch] ?? ch);
}

describe(copyText.name, () => {
  it('writes null as \\N and escapes the four characters COPY reads specially', () => {
    expect(copyText(null)).toBe('\\N');
    expect(copyText('\\N')).toBe('\\\\N');
    expect(copyText('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyText('\\.')).toBe('\\\\.');
    expect(copyText('Łódź 日本 🎉')).toBe('Łódź 日本 🎉');
    // A NUL stays the raw character: Postgres refuses it (22021), so the bisect finds its click.
    expect(copyText('evil\u0000agent')).toBe('evil\u0000agent');
  });

  it('reads back as the same value, and one field never holds a field or line separator, whatever the text', () => {
    const value = fc.option(fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.constantFrom('\\N', '\\.', '\\', '\t', '\n', '\r\n')));
    fc.assert(
      fc.property(value, (v) => {
        const field = copyText(v);
        expect(field).not.toMatch(/[\t\n\r]/);
        expect(readField(field)).toBe(v);
      }),
      { numRuns: 1000 },
    );
  });
});

describe(copyBytes.name, () => {
  it('is the lines in UTF-8, one after the other', () => {
    const rows = [['a', 'Łódź'], ['b\tc', null]] as Array<[string, string | null]>;
    const line = ([x, y]: [string, string | null]) => `${copyText(x)}\t${copyText(y)}\n`;
    expect(copyBytes(rows, line).toString('utf8')).toBe('a\tŁódź\nb\\tc\t\\N\n');
    expect(copyBytes(rows, line).length).toBe(Buffer.byteLength('a\tŁódź\nb\\tc\t\\N\n'));
    expect(copyBytes([], line).length).toBe(0);
  });
});

describe(utf8Bytes.name, () => {
  it('is byte for byte the UTF-8 of the strings and bytes written, whatever their text and however far the scratch space grows', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.string({ unit: 'grapheme', maxLength: 200 }),
      fc.constantFrom('\ud800', '\udfff', '🎉', 'x'.repeat(3000), 'é'.repeat(700_000)),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const want: Buffer[] = [];
        const got = utf8Bytes((out) => {
          for (const p of pieces) {
            if (typeof p === 'number') {
              out.byte(p);
              want.push(Buffer.from([p]));
            } else {
              out.text(p);
              want.push(Buffer.from(p, 'utf8'));
            }
          }
        });
        expect(got.equals(Buffer.concat(want))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives each call its own buffer, and refuses to be called from inside itself', () => {
    const a = utf8Bytes((out) => out.text('first'));
    const b = utf8Bytes((out) => out.text('second'));
    expect([a.toString(), b.toString()]).toEqual(['first', 'second']);
    expect(() => utf8Bytes(() => void utf8Bytes((out) => out.text('x')))).toThrow('utf8Bytes is not reentrant');
    // Usable again after the refusal.
    expect(utf8Bytes((out) => out.text('again')).toString()).toBe('again');
  });

  it('copyBytes of lines longer than the scratch space is every line, in order', () => {
    const long = (k: number) => `${'é'.repeat(40_000 + k)}\t${k}\n`;
    const rows = Array.from({ length: 50 }, (_, k) => k);
    expect(copyBytes(rows, long).toString('utf8')).toBe(rows.map(long).join(''));
  });
});

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
