import { jsonParam } from './click-ingest.repository';

describe(jsonParam.name, () => {
  it('is the rows as JSON', () => {
    const rows = [{ a: 'x"y\\z', b: null, c: 1.5, d: new Date(0) }];
    expect(JSON.parse(jsonParam(rows))).toEqual([{ a: 'x"y\\z', b: null, c: 1.5, d: '1970-01-01T00:00:00.000Z' }]);
  });

  it('sends a NUL as the raw byte (Postgres then refuses the parameter as any text with NUL), a literal "\\u0000" text as it is', () => {
    expect(jsonParam([{ ua: 'evil\u0000agent' }])).toBe('[{"ua":"evil\u0000agent"}]');
    expect(jsonParam([{ ua: 'a\\u0000b' }])).toBe('[{"ua":"a\\\\u0000b"}]');
    expect(jsonParam([{ ua: 'a\\\u0000b' }])).toBe('[{"ua":"a\\\\\u0000b"}]');
  });
});
