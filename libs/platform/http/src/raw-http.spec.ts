import { requestId } from './raw-http';

describe('requestId', () => {
  it('keeps a plain token the caller sent, else makes a UUID', () => {
    expect(requestId({ 'x-request-id': 'req-1.a:b_c' })).toBe('req-1.a:b_c');
    expect(requestId({ 'x-request-id': 'has space' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestId({ 'x-request-id': 'x'.repeat(129) })).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestId({})).toMatch(/^[0-9a-f-]{36}$/);
  });
});
