import { readFileSync } from 'node:fs';
import jsQR from 'jsqr';
import { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { ClickFixtures } from '@dl/testing';
import { accountOf, browserSuite, eventually, signUp, World } from './world';

/** A solid-colour PNG. */
function pngLogo(rgb: [number, number, number]): Buffer {
  const image = new PNG({ width: 48, height: 48 });
  for (let i = 0; i < 48 * 48; i++) image.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(image);
}

// The link page's QR panel (decisions §24): dot and corner styles, a logo upload with its
// preview, the API's refusals shown in words, an SVG logo drawn in PNG codes through the
// raster the page makes.
describe('dashboard: QR code styles and logo (Chromium)', () => {
  let w: World, page: Page;
  browserSuite((s) => ({ w, page } = s));

  /** The PNG the Download link offers, decoded: its text and the colour at its centre. */
  const downloaded = async () => {
    await eventually(async () => ((await page.getByRole('link', { name: 'Download PNG' }).getAttribute('href')) ?? '').startsWith('blob:'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()]);
    const image = PNG.sync.read(readFileSync((await download.path()) as string));
    const centre = ((image.height >> 1) * image.width + (image.width >> 1)) * 4;
    return { text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data, centre: Array.from(image.data.subarray(centre, centre + 3)) };
  };

  it('styles the code, uploads a PNG and an SVG logo (preview and download), shows refusals, removes the logo', async () => {
    const { email } = await signUp(page);
    const { userId, organizationId } = await accountOf(w, email);
    const template = await w.env.prisma.template.findFirstOrThrow({ where: { organizationId } });
    const link = await new ClickFixtures(w.env.prisma).useOwner(organizationId, userId, template.id).link(organizationId, { title: 'Spring sale' });
    const shortUrl = `${w.env.config.SHORT_LINK_BASE_URL}/${link.shortCode}`;

    await page.goto(`/app/links/${link.id}`);
    await page.getByRole('img', { name: /QR code for/ }).waitFor();
    await page.getByLabel('Dots').selectOption('rounded');
    await page.getByLabel('Corners').selectOption('dot');
    expect((await downloaded()).text).toBe(shortUrl);

    // A PNG logo: the preview and the download carry it, error correction shows High.
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngLogo([210, 40, 40]) });
    await page.getByText('Logo added to the QR code').waitFor();
    await page.getByLabel('Show logo (PNG, 1 KB)').waitFor();
    expect(await page.getByLabel('Error correction').inputValue()).toBe('H');
    await eventually(async () => {
      const code = await downloaded();
      return code.text === shortUrl && code.centre.join() === '210,40,40';
    });

    // Refusals in words next to the field; the stored logo stays.
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') });
    await page.getByText('Must be a PNG or SVG image').first().waitFor();
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(100 * 1024 + 1) });
    await page.getByText('Must be at most 100 KB').first().waitFor();
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'evil.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><script>alert(1)</script><rect width="10" height="10"/></svg>') });
    await page.getByText(/SVG must not contain scripts/).first().waitFor();
    await page.getByLabel('Show logo (PNG, 1 KB)').waitFor();

    // An SVG logo: the page sends its PNG rendering too, so PNG codes draw it.
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00a000"/></svg>';
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(svg) });
    await page.getByLabel('Show logo (SVG, 1 KB)').waitFor();
    await eventually(async () => {
      const code = await downloaded();
      return code.text === shortUrl && code.centre.join() === '0,160,0';
    });

    // Hidden, then removed: a plain centre again.
    await page.getByLabel('Show logo (SVG, 1 KB)').uncheck();
    await eventually(async () => (await downloaded()).centre.join() !== '0,160,0');
    await page.getByRole('button', { name: 'Remove logo' }).click();
    await page.getByText('Logo removed').waitFor();
    expect(await w.env.prisma.qrLogo.count({ where: { linkId: link.id } })).toBe(0);
  }, 120_000);
});
