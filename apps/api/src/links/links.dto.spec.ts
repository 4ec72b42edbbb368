import { decodeListCursor, encodeListCursor } from '@dl/links';
import { errorBodyOf, pipeAccepts, pipeRefusal } from '@dl/testing';
import { ListLinksQueryDto } from './links.dto';

const bad = (message: string, validation: Record<string, string>) => ({ error: 'Bad Request', message, statusCode: 400, validation });
const CURSOR = 'Must be a cursor from a previous X-Next-Cursor header';
const TAGS = 'Must be up to 20 tags of 1-40 characters';
/** A query string as Fastify parses it: a repeated name becomes an array. */
const query = (q: string) => {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(q)) out[k] = k in out ? [out[k]].flat().concat(v) : v;
  return out;
};

// GET /api/links's query (decisions §16) as the validation pipe reads it; the e2e spec keeps
// one refusal over HTTP and the service's (a domain that is not a name, a foreign project).
describe(ListLinksQueryDto.name, () => {
  it('takes every filter, the limit and tags as the query string spells them', async () => {
    expect({ ...(await pipeAccepts(ListLinksQueryDto, query('search=Spring&tag=a&tag=b&isActive=false&limit=1000&domain=go.example.com'), 'query')) }).toEqual({
      search: 'Spring',
      tag: ['a', 'b'],
      isActive: false,
      limit: 1000,
      domain: 'go.example.com',
    });
    expect((await pipeAccepts(ListLinksQueryDto, query('tag=one'), 'query')).tag).toEqual(['one']);
  });

  it.each([
    ['limit=0', 'Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }],
    ['limit=1001', 'Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }],
    ['limit=ten', 'Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }],
    ['limit=1.5', 'Limit must be between 1 and 1000', { limit: 'Must be between 1 and 1000' }],
    [`cursor=${'A'.repeat(300)}`, 'Validation error', { cursor: CURSOR }],
    ['cursor=a&cursor=b', 'Validation error', { cursor: CURSOR }],
    ['projectId=42', 'Validation error', { projectId: 'Must be a valid UUID' }],
    ['isActive=yes', 'Validation error', { isActive: 'Must be true or false' }],
    [`tag=${'t'.repeat(41)}`, 'Validation error', { tag: TAGS }],
    ['tag=', 'Validation error', { tag: TAGS }],
    [Array.from({ length: 21 }, (_, i) => `tag=t${i}`).join('&'), 'Validation error', { tag: TAGS }],
    [`search=${'s'.repeat(201)}`, 'Validation error', { search: 'Must be a string of at most 200 characters' }],
    ['search=a%00b', 'Validation error', { search: 'Must not contain NUL characters or unpaired surrogates' }],
    ['sort=asc', 'Validation error', { sort: 'Unknown field' }],
  ])('?%s → 400 %s', async (q, message, validation) => {
    expect(await pipeRefusal(ListLinksQueryDto, query(q), 'query')).toEqual(bad(message, validation));
  });
});

describe(decodeListCursor.name, () => {
  it('reads back the cursors the list hands out, and refuses anything else naming the cursor', async () => {
    const id = '3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(decodeListCursor(encodeListCursor('2026-01-01T00:00:00.000000Z', id))).toEqual({ createdAt: '2026-01-01T00:00:00.000000Z', id });
    for (const cursor of ['not-a-cursor', Buffer.from('2026-01-01T00:00:00.000000Z|nope').toString('base64url'), encodeListCursor('2026-01-01T00:00:00Z', id), `${encodeListCursor('2026-01-01T00:00:00.000000Z', id)}==`]) {
      expect(await errorBodyOf(Promise.resolve().then(() => decodeListCursor(cursor)))).toEqual(bad('Validation error', { cursor: CURSOR }));
    }
  });
});
