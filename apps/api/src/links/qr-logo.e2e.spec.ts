import { PNG } from 'pngjs';
import request from 'supertest';
import { bad, forbidden, LinksWorld, linksWorld, notFound } from './test/links-setup';
import { binary, decodeQr } from './test/qr';

/** A solid-colour PNG logo. */
function pngLogo(width: number, height: number, rgb: [number, number, number]): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(image);
}
const SVG_LOGO = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#0a0"/></svg>');

describe('QR logo and styles (decisions §24): /api/links/:id/qr/logo and ?dots=&corners=&logo=', () => {
  let w: LinksWorld;
  let link: { id: string; short_url: string };
  const RED = pngLogo(90, 60, [220, 30, 30]);
  const qr = (query = '', key = w.keyA) =>
    request(w.api.url).get(`/api/links/${link.id}/qr${query}`).set('Authorization', `Bearer ${key}`).buffer(true).parse(binary);
  const upload = (parts: Record<string, { body: Buffer; filename: string; contentType: string }>, id = link.id, key = w.keyA) => {
    let req = request(w.api.url).put(`/api/links/${id}/qr/logo`).set('Authorization', `Bearer ${key}`);
    for (const [name, part] of Object.entries(parts)) req = req.attach(name, part.body, { filename: part.filename, contentType: part.contentType });
    return req;
  };
  const png = (body: Buffer, filename = 'logo.png') => ({ body, filename, contentType: 'image/png' });
  const images = () => w.env.prisma.qrImage.count({ where: { linkId: link.id } });

  beforeAll(async () => {
    w = await linksWorld();
    link = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/logo' }).expect(201)).body;
  });
  afterAll(() => w?.close());

  it('without a logo: GET answers null; styles render, decode and are cached per variant', async () => {
    expect((await w.http().get(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual({ logo: null });
    const first = await qr('?dots=dots&corners=rounded').expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(decodeQr(first.body).text).toBe(link.short_url);
    const again = await qr('?dots=dots&corners=rounded').expect(200);
    expect(Buffer.compare(again.body, first.body)).toBe(0);
    const svg = (await qr('?format=svg&dots=rounded&corners=dot').expect(200)).body.toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*viewBox/);
    expect(await w.env.prisma.qrImage.findMany({ where: { linkId: link.id }, select: { variant: true }, orderBy: { variant: 'asc' } })).toEqual([
      { variant: 'png|512|2|000000|ffffff|M|dots|rounded|' },
      { variant: 'svg|512|2|000000|ffffff|M|rounded|dot|' },
    ]);
  });

  it('PUT a PNG logo → 200 with what was stored; the cache is dropped; codes show the logo in the centre at level H and still decode', async () => {
    const res = await upload({ logo: png(RED) }).expect(200);
    expect(res.body).toEqual({ logo: { contentType: 'image/png', bytes: RED.length, rasterized: true, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), updatedAt: expect.any(String) } });
    expect(await images()).toBe(0);
    expect((await w.http().get(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual(res.body);

    for (const query of ['', '?dots=rounded&corners=dot&size=256', '?dots=dots&corners=rounded&ecc=L&fg=123456']) {
      const code = decodeQr((await qr(query).expect(200)).body);
      expect([query, code.text]).toEqual([query, link.short_url]);
      expect(code.pixel(code.width / 2, code.width / 2)).toEqual([220, 30, 30]);
    }
    // ecc=L is raised to H with a logo: the variant names H and the logo's hash.
    const variants = (await w.env.prisma.qrImage.findMany({ where: { linkId: link.id }, select: { variant: true } })).map((v) => v.variant);
    expect(variants).toContain(`png|512|2|123456|ffffff|H|dots|rounded|${res.body.logo.sha256}`);

    const svg = (await qr('?format=svg&dots=dots').expect(200)).body.toString('utf8');
    expect(svg).toContain(`href="data:image/png;base64,${RED.toString('base64')}"`);
    // logo=false leaves it out: the plain code of before.
    const plain = decodeQr((await qr('?logo=false').expect(200)).body);
    expect(plain.pixel(plain.width / 2, plain.width / 2)).not.toEqual([220, 30, 30]);
  });

  it('a second request is a cache hit (same bytes, no new row); a new logo drops the cache and changes the code', async () => {
    const before = await qr('?dots=rounded').expect(200);
    const count = await images();
    expect(Buffer.compare((await qr('?dots=rounded').expect(200)).body, before.body)).toBe(0);
    expect(await images()).toBe(count);
    const blue = pngLogo(40, 40, [20, 40, 200]);
    await upload({ logo: png(blue) }).expect(200);
    expect(await images()).toBe(0);
    const after = decodeQr((await qr('?dots=rounded').expect(200)).body);
    expect([after.text, after.pixel(after.width / 2, after.width / 2)]).toEqual([link.short_url, [20, 40, 200]]);
  });

  it('an SVG logo: embedded in SVG codes; in PNG codes its raster, rendered by the server when sent alone', async () => {
    const svgPart = { body: SVG_LOGO, filename: 'logo.svg', contentType: 'image/svg+xml' };
    expect((await upload({ logo: svgPart }).expect(200)).body.logo).toMatchObject({ contentType: 'image/svg+xml', bytes: SVG_LOGO.length, rasterized: true });
    expect((await qr('?format=svg').expect(200)).body.toString('utf8')).toContain(`href="data:image/svg+xml;base64,${SVG_LOGO.toString('base64')}"`);
    const rendered = decodeQr((await qr().expect(200)).body);
    expect([rendered.text, rendered.pixel(rendered.width / 2, rendered.width / 2)]).toEqual([link.short_url, [0, 170, 0]]);
    const broken = { body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'), filename: 'logo.svg', contentType: 'image/svg+xml' };
    expect((await upload({ logo: broken }).expect(400)).body).toEqual(bad('Validation error', { logo: 'The SVG could not be rendered (malformed, or over 2 seconds of work): send its PNG rendering as raster' }));
    // The dashboard sends the browser's rendering as raster: that one is drawn (another colour here, to tell them apart).
    const teal = pngLogo(64, 64, [0, 128, 128]);
    expect((await upload({ logo: svgPart, raster: png(teal, 'logo.png') }).expect(200)).body.logo).toMatchObject({ contentType: 'image/svg+xml', rasterized: true });
    const code = decodeQr((await qr().expect(200)).body);
    expect([code.text, code.pixel(code.width / 2, code.width / 2)]).toEqual([link.short_url, [0, 128, 128]]);
  });

  // One refusal over HTTP (the app's own upload limits); the form's refusals: qr-logo-upload.spec.ts,
  // the bytes': libs/links/src/qr-logo.spec.ts, the service's (an undecodable PNG, a raster for a
  // PNG): libs/links/src/qr.service.medium.spec.ts.
  it('a 10 MB logo → 400 Validation error naming the part; the stored logo stays', async () => {
    const before = (await w.http().get(`/api/links/${link.id}/qr/logo`).expect(200)).body;
    expect((await upload({ logo: png(Buffer.alloc(10 * 1024 * 1024, 7)) }).expect(400)).body).toEqual(bad('Validation error', { logo: 'Must be at most 100 KB' }));
    expect((await w.http().get(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual(before);
  });

  it('a JSON body, or a bad style → 400', async () => {
    expect((await w.http().put(`/api/links/${link.id}/qr/logo`, { logo: 'data:image/png;base64,AAAA' }).expect(400)).body).toEqual(
      bad('Validation error', { logo: 'Must be a multipart/form-data upload with a PNG or SVG file' }),
    );
    const res = await w.http().get(`/api/links/${link.id}/qr?dots=hearts&corners=x&logo=maybe`).expect(400);
    expect(res.body).toEqual(bad('Validation error', { dots: 'Must be one of square, rounded, dots', corners: 'Must be one of square, rounded, dot', logo: 'Must be true or false' }));
  });

  it('another organization gets 404 Link not found on every logo route; a viewer cannot change it', async () => {
    expect((await upload({ logo: png(RED) }, link.id, w.keyB).expect(404)).body).toEqual(notFound('Link not found'));
    expect((await w.http(w.keyB).get(`/api/links/${link.id}/qr/logo`).expect(404)).body).toEqual(notFound('Link not found'));
    expect((await w.http(w.keyB).del(`/api/links/${link.id}/qr/logo`).expect(404)).body).toEqual(notFound('Link not found'));
    expect((await upload({ logo: png(RED) }, link.id, w.viewerA).expect(403)).body).toEqual(forbidden('Your role does not allow this action'));
    expect((await w.http(w.viewerA).get(`/api/links/${link.id}/qr/logo`).expect(200)).body.logo).not.toBeNull();
  });

  it('DELETE removes the logo and drops the cache; deleting the link removes its logo', async () => {
    await qr().expect(200);
    expect((await w.http().del(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual({ success: true });
    expect(await images()).toBe(0);
    expect((await w.http().get(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual({ logo: null });
    expect((await w.http().del(`/api/links/${link.id}/qr/logo`).expect(200)).body).toEqual({ success: true });

    const other = (await w.http().post('/api/links', { templateId: w.a.template.id, originalUrl: 'https://example.com/gone' }).expect(201)).body;
    await upload({ logo: png(RED) }, other.id).expect(200);
    await w.http().del(`/api/links/${other.id}`).expect(200);
    expect(await w.env.prisma.qrLogo.count({ where: { linkId: other.id } })).toBe(0);
  });
});
