import { parseUserFilter } from './scim-filter';

describe(parseUserFilter.name, () => {
  it('reads userName eq "…" with any case of the attribute and operator, and JSON escapes', () => {
    expect(parseUserFilter('userName eq "ana@example.com"')).toEqual({ userName: 'ana@example.com' });
    expect(parseUserFilter('  USERNAME EQ "a\\"b"  ')).toEqual({ userName: 'a"b' });
    expect(parseUserFilter(undefined)).toBeUndefined();
  });

  it.each(['userName eq ana', 'userName co "a"', 'emails eq "a"', 'userName eq "a" and active eq true', 'userName eq "a', '', 'userName eq "\\x"'])(
    'refuses %j with 400 invalidFilter',
    (filter) => {
      let caught: unknown;
      try {
        parseUserFilter(filter);
      } catch (err) {
        caught = err;
      }
      expect((caught as { body(): unknown }).body()).toEqual({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
        status: '400',
        scimType: 'invalidFilter',
        detail: expect.any(String),
      });
    },
  );
});
