import { parseUserFilter } from './scim-filter';
import { paging } from './scim.service';

/** The SCIM error body a parse throws, or `accepted`. */
function refusal(parse: () => unknown): unknown {
  try {
    parse();
  } catch (err) {
    return (err as { body(): unknown }).body();
  }
  return 'accepted';
}
const scimError = (scimType: string, detail: unknown = expect.any(String)) => ({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '400', scimType, detail });

describe(parseUserFilter.name, () => {
  it('reads userName eq "…" with any case of the attribute and operator, and JSON escapes', () => {
    expect(parseUserFilter('userName eq "ana@example.com"')).toEqual({ userName: 'ana@example.com' });
    expect(parseUserFilter('  USERNAME EQ "a\\"b"  ')).toEqual({ userName: 'a"b' });
    expect(parseUserFilter(undefined)).toBeUndefined();
  });

  it.each(['userName eq ana', 'userName co "a"', 'emails eq "a"', 'userName eq "a" and active eq true', 'userName eq "a', '', 'userName eq "\\x"'])(
    'refuses %j with 400 invalidFilter',
    (filter) => expect(refusal(() => parseUserFilter(filter))).toEqual(scimError('invalidFilter')),
  );
});

describe('SCIM list paging (RFC 7644 §3.4.2.4)', () => {
  it('defaults to the first 100; a startIndex below 1 is 1, a negative count 0, a count over 200 is 200', () => {
    expect(paging(undefined, undefined)).toEqual({ startIndex: 1, count: 100 });
    expect(paging('3', '10')).toEqual({ startIndex: 3, count: 10 });
    expect(paging('0', '-5')).toEqual({ startIndex: 1, count: 0 });
    expect(paging(-7, 0)).toEqual({ startIndex: 1, count: 0 });
    expect(paging('1', '5000')).toEqual({ startIndex: 1, count: 200 });
  });

  it.each([
    ['a word', 'ten', undefined],
    ['a fraction', undefined, '1.5'],
    ['an array (a repeated parameter)', ['1', '2'], undefined],
    ['too many digits', '1234567890', undefined],
  ])('refuses %s with 400 invalidValue', (_case, startIndex, count) => {
    expect(refusal(() => paging(startIndex, count))).toEqual(scimError('invalidValue', 'startIndex and count must be integers'));
  });
});
