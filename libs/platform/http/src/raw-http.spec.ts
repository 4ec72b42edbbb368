import { requestId, routedPath } from './raw-http';

describe('requestId', () => {
  it('keeps a plain token the caller sent, else makes a UUID', () => {
    expect(requestId({ 'x-request-id': 'req-1.a:b_c' })).toBe('req-1.a:b_c');
    expect(requestId({ 'x-request-id': 'has space' })).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestId({ 'x-request-id': 'x'.repeat(129) })).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestId({})).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('routedPath', () => {
  it('reads a request target as the router matches static routes', () => {
    expect(routedPath('/api/sdk/v1/event')).toBe('/api/sdk/v1/event');
    expect(routedPath('/api/sdk/v1/event/?x=1')).toBe('/api/sdk/v1/event');
    expect(routedPath('/api/sdk/v1/%65vent#f')).toBe('/api/sdk/v1/event');
    expect(routedPath('/api/sdk/v1%2Fevent')).toBe('/api/sdk/v1%2Fevent');
    expect(routedPath('/api/sdk/v1/event//')).toBe('/api/sdk/v1/event/');
    expect(routedPath('/')).toBe('/');
    expect(routedPath('/%zz')).toBeNull();
  });
});
