import fc from 'fast-check';
import { copyBytes, copyText } from './click-ingest.repository';

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
