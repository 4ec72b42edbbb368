import { get as httpGet, validateHeaderValue } from 'node:http';
import { appEnv, closeAll, RunningApp, SeededOrg, seedLink, seedRedirectOrg, TestEnv } from '@dl/testing';
import { createRedirectApp } from './app';

/** A raw GET (supertest would refuse some of these values): status, headers, and whether the socket failed. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
  });
}

/**
 * Decisions §14: a destination with non-ASCII characters (stored before URLs were
 * normalised, or still cached in that form) redirects with a percent-encoded Location,
 * and the process keeps serving.
 */
describe('redirect edge: hostile destinations', () => {
  let env: TestEnv, server: RunningApp, org: SeededOrg;

  beforeAll(async () => {
    ({ env, server } = await appEnv(createRedirectApp));
    org = await seedRedirectOrg(env.prisma);
  });

  afterAll(() => closeAll(server, env));

  it('answers an old café/€ row with a percent-encoded Location and keeps serving', async () => {
    const cafe = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/café/€' });
    const plain = await seedLink(env.prisma, org, { originalUrl: 'https://example.com/plain' });
    for (let i = 0; i < 3; i++) {
      // Cache miss (promise path) then cache hits (synchronous path): both answer.
      const res = await rawGet(`${server.url}/${cafe.shortCode}?q=€`);
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('https://example.com/caf%C3%A9/%E2%82%AC?q=%E2%82%AC');
      expect(() => validateHeaderValue('location', String(res.headers.location))).not.toThrow();
    }
    const after = await rawGet(`${server.url}/${plain.shortCode}`);
    expect(after.status).toBe(302);
    expect(after.headers.location).toBe('https://example.com/plain');
  });

  it('answers a percent-encoded code with a valid Location too', async () => {
    const cafe = await seedLink(env.prisma, org, { originalUrl: 'https://exämple.com/ü' });
    const encoded = cafe.shortCode.replace(/^t/, '%74');
    const res = await rawGet(`${server.url}/${encoded}`);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('https://xn--exmple-cua.com/%C3%BC');
  });
});
