import { paging } from './scim.service';

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
    let caught: unknown;
    try {
      paging(startIndex, count);
    } catch (err) {
      caught = err;
    }
    expect((caught as { body(): unknown }).body()).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '400',
      scimType: 'invalidValue',
      detail: 'startIndex and count must be integers',
    });
  });
});
