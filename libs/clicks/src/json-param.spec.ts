import { jsonParam, lazyJsonParam } from './click-ingest.repository';

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

describe(lazyJsonParam.name, () => {
  it('builds the JSON only when the driver asks for it (toPostgres), each time from the rows, with the same NUL rule', () => {
    const mapped: string[] = [];
    const rows = [{ ua: 'evil\u0000agent', n: 1 }];
    const param = lazyJsonParam(rows, (r) => (mapped.push(r.ua), { u: r.ua }));
    expect(mapped).toEqual([]);
    expect(param.toPostgres()).toBe('[{"u":"evil\u0000agent"}]');
    expect(param.toPostgres()).toBe(jsonParam([{ u: 'evil\u0000agent' }]));
    expect(mapped).toHaveLength(2);
    expect(lazyJsonParam([{ a: null }]).toPostgres()).toBe('[{"a":null}]');
  });
});
