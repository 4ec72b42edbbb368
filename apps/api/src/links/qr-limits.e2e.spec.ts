import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { LinksWorld, linksWorld } from './test/links-setup';
import { binary } from './test/qr';

const colour = (i: number) => i.toString(16).padStart(6, '0');

describe('QR renders: counted against the rate limit (decisions §14; off the event loop: qr.service.medium.spec.ts)', () => {
  let w: LinksWorld;
  const qr = (path: string, key: string) => request(w.api.url).get(path).set('Authorization', `Bearer ${key}`).buffer(true).parse(binary);

  beforeAll(async () => {
    // A is FREE (10 requests a minute), B is PRO (60).
    w = await linksWorld({ tierA: Tier.FREE, rateLimit: true });
  });
  afterAll(() => w?.close());

  it('a burst of distinct variants gets 429 past the limit; cached variants and other organizations still answer', async () => {
    const link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/burst' }).expect(201)).body;
    const created = await w.http().get(`/api/links/${link.id}`);
    // The create and the read took 2 of the 10; each render takes one more.
    expect(created.headers['x-ratelimit-remaining']).toBe('8');
    for (let i = 0; i < 8; i++) {
      const res = await qr(`/api/links/${link.id}/qr?size=128&fg=${colour(i)}`, w.keyA).expect(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['x-ratelimit-limit']).toBe('10');
      expect(res.headers['x-ratelimit-remaining']).toBe(String(7 - i));
    }
    const refused = await qr(`/api/links/${link.id}/qr?size=128&fg=${colour(8)}`, w.keyA).expect(429);
    const body = JSON.parse(refused.body.toString('utf8'));
    expect(body).toEqual({ error: 'Too Many Requests', message: 'Too many requests, please retry later', statusCode: 429, retryAfter: expect.any(Number) });
    expect(body.retryAfter).toBeGreaterThanOrEqual(1);
    expect(body.retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['retry-after']).toBe(String(body.retryAfter));
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Nothing rendered or stored for the refused variant; the eight rendered ones are cached.
    expect(await w.env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(8);
    // A cached variant is served without counting (and without the headers).
    const hit = await qr(`/api/links/${link.id}/qr?size=128&fg=${colour(3)}`, w.keyA).expect(200);
    expect(hit.headers['x-ratelimit-limit']).toBeUndefined();
    // Another organization's renders are its own business.
    const other = (await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com/b' }).expect(201)).body;
    const theirs = await qr(`/api/links/${other.id}/qr?size=128&fg=${colour(8)}`, w.keyB).expect(200);
    expect(theirs.headers['x-ratelimit-limit']).toBe('60');
  });
});
