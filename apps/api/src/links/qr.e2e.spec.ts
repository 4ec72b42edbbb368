import request from 'supertest';
import { Tier } from '@dl/platform/db';
import { bad, LinksWorld, linksWorld, notFound } from './test/links-setup';
import { binary, decodeQr as decode } from './test/qr';

describe('QR codes: GET /api/links/:id/qr', () => {
  let w: LinksWorld;
  let link: { id: string; short_code: string; short_url: string };
  const qr = (path: string, key = w.keyA) =>
    request(w.api.url).get(path).set('Authorization', `Bearer ${key}`).buffer(true).parse(binary);

  beforeAll(async () => {
    // FREE: 10 requests a minute, so the rate limit is real here.
    w = await linksWorld({ tierA: Tier.FREE, rateLimit: true });
    link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/qr' }).expect(201)).body;
  });
  afterAll(() => w?.close());

  it('PNG (default 512 px) decodes back to the short URL, and is cached', async () => {
    const res = await qr(`/api/links/${link.id}/qr`).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    const decoded = decode(res.body);
    expect(decoded.text).toBe(link.short_url);
    expect(decoded.width).toBe(512);
    expect(await w.env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(1);
    const again = await qr(`/api/links/${link.id}/qr`).expect(200);
    expect(Buffer.compare(again.body, res.body)).toBe(0);
    expect(await w.env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(1);
  });

  it('SVG answers image/svg+xml with the colours', async () => {
    const res = await qr(`/api/links/${link.id}/qr?format=svg&fg=ff0000`).expect(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = res.body.toString('utf8');
    expect(svg).toMatch(/^<svg[^>]*viewBox/);
    expect(svg).toContain('#ff0000');
  });

  // One refusal over HTTP; every rule of the query is in libs/links/src/qr.dto.spec.ts, the
  // renders (options, cache, charging, worker threads) in qr.service.medium.spec.ts.
  it('?size=300 → 400 Validation error', async () => {
    const res = await w.http().get(`/api/links/${link.id}/qr?size=300`).expect(400);
    expect(res.body).toEqual(bad('Validation error', { size: 'Must be one of 128, 256, 512, 1024, 2048' }));
  });

  it('another organization or unknown → 404; malformed id → 400', async () => {
    expect((await w.http(w.keyB).get(`/api/links/${link.id}/qr`).expect(404)).body).toEqual(notFound('Link not found'));
    expect((await w.http().get('/api/links/00000000-0000-4000-8000-000000000000/qr').expect(404)).body).toEqual(notFound('Link not found'));
    expect((await w.http().get('/api/links/nope/qr').expect(400)).body).toEqual(bad('Validation error', { id: 'Must be a valid UUID' }));
  });

  it('cached images are not rate limited (FREE allows 10 API requests a minute)', async () => {
    // The first request renders (a miss, counted since decisions §14); the rest are cache hits.
    await qr(`/api/links/${link.id}/qr?size=128`).expect(200);
    for (let i = 0; i < 15; i++) {
      const res = await qr(`/api/links/${link.id}/qr?size=128`).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
    // Counted endpoints of the same organization are limited meanwhile.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await w.http().get('/api/links')).status);
    expect(statuses).toContain(429);
  });

  it('deleting the link removes its cached images', async () => {
    const other = (await w.http(w.keyB).post('/api/links', { templateId: w.b.template.id, originalUrl: 'https://example.com' }).expect(201)).body;
    await qr(`/api/links/${other.id}/qr`, w.keyB).expect(200);
    expect(await w.env.prisma.qrImage.count({ where: { linkId: other.id } })).toBe(1);
    await w.http(w.keyB).del(`/api/links/${other.id}`).expect(200);
    expect(await w.env.prisma.qrImage.count({ where: { linkId: other.id } })).toBe(0);
  });
});
