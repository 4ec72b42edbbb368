import { monitorEventLoopDelay } from 'node:perf_hooks';
import { INestApplicationContext } from '@nestjs/common';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { ClickFixtures, closeAll, errorBodyOf, SeededOrganization, seedOrganization, serviceEnv, TestEnv } from '@dl/testing';
import { LinksModule } from './links.module';
import { QrRenderPool } from './qr-render-pool';
import { QrService, RASTERIZE_TIMEOUT_MS } from './qr.service';

/** Decodes a PNG QR code back to its text (jsqr over pngjs pixels). */
function decode(png: Buffer): { text: string | undefined; width: number; pixel: (x: number, y: number) => number[] } {
  const image = PNG.sync.read(png);
  const pixel = (x: number, y: number) => Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
  return { text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data, width: image.width, pixel };
}

/** A whole PNG of one colour. */
function pngOf(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([220, 30, 30, 255], i * 4);
  return PNG.sync.write(image);
}

describe(QrService.name, () => {
  let env: TestEnv, app: INestApplicationContext, qr: QrService, acme: SeededOrganization, other: SeededOrganization;
  let link: { id: string; shortCode: string };

  beforeAll(async () => {
    ({ env, app } = await serviceEnv([LinksModule]));
    qr = app.get(QrService);
    [acme, other] = [await seedOrganization(env), await seedOrganization(env)];
    link = await new ClickFixtures(env.prisma).useOwner(acme.organization.id, acme.owner.user.id, acme.template.id).link(acme.organization.id);
  });
  afterAll(() => closeAll(app, env));

  const shortUrl = () => `http://sho.rt/${link.shortCode}`;

  it('renders each variant once: a miss is charged and stored, a hit is served from the cache uncharged', async () => {
    let charged = 0;
    const charge = async () => void charged++;
    const first = await qr.render(acme.organization.id, link.id, {}, charge);
    expect(first.contentType).toBe('image/png');
    expect(decode(first.body)).toMatchObject({ text: shortUrl(), width: 512 });
    const again = await qr.render(acme.organization.id, link.id, {}, charge);
    expect(Buffer.compare(again.body, first.body)).toBe(0);
    expect(charged).toBe(1);
    expect(await env.prisma.qrImage.count({ where: { linkId: link.id } })).toBe(1);
  });

  it('applies size, margin, colours and error correction; SVG carries the colours', async () => {
    const png = decode((await qr.render(acme.organization.id, link.id, { size: 256, margin: 4, fg: '112233', bg: 'FFEEDD', ecc: 'H' })).body);
    expect([png.text, png.width, png.pixel(0, 0)]).toEqual([shortUrl(), 256, [0xff, 0xee, 0xdd]]);
    const svg = await qr.render(acme.organization.id, link.id, { format: 'svg', fg: 'ff0000' });
    expect(svg.contentType).toBe('image/svg+xml');
    expect(svg.body.toString('utf8')).toMatch(/^<svg[^>]*viewBox/);
    expect(svg.body.toString('utf8')).toContain('#ff0000');
  });

  // The service's refusals of a logo (the form's: apps/api/src/links/qr-logo-upload.spec.ts; the bytes': qr-logo.spec.ts).
  it.each([
    ['a PNG header over garbage', () => [Buffer.concat([pngOf(90, 60).subarray(0, 33), Buffer.alloc(200, 1)]), null], { logo: 'Must be a PNG or SVG image' }],
    ['a raster for a PNG logo', () => [pngOf(90, 60), pngOf(90, 60)], { raster: 'Only an SVG logo takes a raster' }],
    // Safe by its text (a root and no references), but not XML: it does not render.
    ['an SVG alone that does not render', () => [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'), null], { logo: 'The SVG could not be rendered (malformed, or over 2 seconds of work): send its PNG rendering as raster' }],
  ] as Array<[string, () => [Buffer, Buffer | null], Record<string, string>]>)('%s → 400 Validation error naming the part; the stored logo stays', async (_name, parts, validation) => {
    await qr.setLogo(acme.organization.id, link.id, pngOf(40, 40), null);
    const before = await qr.getLogo(acme.organization.id, link.id);
    expect(await errorBodyOf(qr.setLogo(acme.organization.id, link.id, ...parts()))).toEqual({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
    expect(await qr.getLogo(acme.organization.id, link.id)).toEqual(before);
    await qr.removeLogo(acme.organization.id, link.id);
  });

  it('an SVG logo sent alone is rendered to a PNG of 640 px on its longest side and drawn in PNG codes', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><rect width="20" height="10" fill="#1e90ff"/></svg>');
    const pool = app.get(QrRenderPool);
    await qr.render(acme.organization.id, link.id, { size: 128 });
    const threads = pool.threads;
    expect(threads).toBeGreaterThan(0);
    expect(await qr.setLogo(acme.organization.id, link.id, svg, null)).toMatchObject({ logo: { contentType: 'image/svg+xml', bytes: svg.length, rasterized: true } });
    // The thread that ran resvg (its WebAssembly memory only grows) is gone.
    expect(pool.threads).toBe(threads - 1);
    const stored = await env.prisma.qrLogo.findUniqueOrThrow({ where: { linkId: link.id } });
    const raster = PNG.sync.read(Buffer.from(stored.raster!));
    expect([raster.width, raster.height, Array.from(raster.data.subarray(0, 4))]).toEqual([640, 320, [0x1e, 0x90, 0xff, 255]]);
    const code = decode((await qr.render(acme.organization.id, link.id, { size: 256 })).body);
    expect([code.text, code.pixel(128, 128)]).toEqual([shortUrl(), [0x1e, 0x90, 0xff]]);
    // A logo stored without a raster (before uploads rendered SVGs): rendered for the code.
    await env.prisma.qrLogo.update({ where: { linkId: link.id }, data: { raster: null } });
    await env.prisma.qrImage.deleteMany({ where: { linkId: link.id } });
    const again = decode((await qr.render(acme.organization.id, link.id, { size: 256 })).body);
    expect([again.text, again.pixel(128, 128)]).toEqual([shortUrl(), [0x1e, 0x90, 0xff]]);
    await qr.removeLogo(acme.organization.id, link.id);
  });

  it('an SVG that would take minutes to render (19,683 layered full-size fills) → 400 after 2 s; the render thread is replaced and serves the next code', async () => {
    let defs = '<rect id="l0" width="10" height="10" fill-opacity="0.5"/>';
    for (let i = 1; i <= 9; i++) defs += `<g id="l${i}"><use href="#l${i - 1}"/><use href="#l${i - 1}"/><use href="#l${i - 1}"/></g>`;
    const heavy = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><defs>${defs}</defs><use href="#l9"/></svg>`);
    const started = performance.now();
    expect(await errorBodyOf(qr.setLogo(acme.organization.id, link.id, heavy, null))).toEqual({
      error: 'Bad Request',
      message: 'Validation error',
      statusCode: 400,
      validation: { logo: 'The SVG could not be rendered (malformed, or over 2 seconds of work): send its PNG rendering as raster' },
    });
    // Refused at the cap, not after the minutes it would take (the bound is loose: a loaded host is slow to replace a thread).
    expect(performance.now() - started).toBeLessThan(RASTERIZE_TIMEOUT_MS + 8_000);
    expect(await qr.getLogo(acme.organization.id, link.id)).toEqual({ logo: null });
    expect(decode((await qr.render(acme.organization.id, link.id, { size: 200, fg: '0000aa' })).body).text).toBe(shortUrl());
  });

  it("another organization's link answers 404 Link not found, charging nothing", async () => {
    let charged = 0;
    expect(await errorBodyOf(qr.render(other.organization.id, link.id, { size: 128 }, async () => void charged++))).toEqual({
      error: 'Not Found',
      message: 'Link not found',
      statusCode: 404,
    });
    expect(charged).toBe(0);
  });

  it('renders in worker threads: this event loop keeps turning while large PNGs render (decisions §14)', async () => {
    let last = performance.now();
    let maxGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 5);
    const started = performance.now();
    const durations: number[] = [];
    const renders = ['000001', '000002'].map((fg) =>
      qr.render(acme.organization.id, link.id, { size: 2048, ecc: 'H', fg }).then((image) => {
        durations.push(performance.now() - started);
        return image;
      }),
    );
    const images = await Promise.all(renders);
    clearInterval(ticker);
    expect(decode(images[0].body)).toMatchObject({ text: shortUrl(), width: 2048 });
    // On this thread a render (about a second of CPU) would stall the loop for all of it.
    expect(maxGap).toBeLessThan(Math.min(...durations) / 2);
  });

  it('logo renders (decisions §24) run in the threads too: 50 at once leave the event loop turning, and each decodes', async () => {
    const image = new PNG({ width: 64, height: 64 });
    for (let i = 0; i < 64 * 64; i++) image.data.set([200, 20, 20, 255], i * 4);
    await qr.setLogo(acme.organization.id, link.id, PNG.sync.write(image), null);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const renders = await Promise.all(
      Array.from({ length: 50 }, (_, i) => qr.render(acme.organization.id, link.id, { size: 256, dots: 'rounded', corners: 'dot', fg: (i + 1).toString(16).padStart(6, '0') })),
    );
    const wall = performance.now() - started;
    delay.disable();
    expect(decode(renders[49].body)).toMatchObject({ text: shortUrl(), width: 256 });
    expect(decode(renders[49].body).pixel(128, 128)).toEqual([200, 20, 20]);
    // 50 renders take seconds of CPU; the loop's longest stall stays a small part of that.
    expect(delay.max / 1e6).toBeLessThan(wall / 4);
  }, 120_000);
});
