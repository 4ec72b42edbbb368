/**
 * Screenshots of the link page's QR panel (decisions §24: dot and corner styles, a logo) in
 * light and dark, at 1280 px and 390 px, into docs/screenshots/qr-<theme>-<width>.png.
 *
 *   node tools/scripts/run.js apps/dashboard/test/qr-screens.ts
 */
import { join } from 'node:path';
import { ClickFixtures } from '@dl/testing';
import { accountOf, eventually, screenshotScript } from './world';

const root = join(__dirname, '..', '..', '..');
const out = join(root, 'docs', 'screenshots');
/** A small brand mark: a rounded orange square with a white "N". */
const LOGO = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#e8590c"/>' +
    '<path d="M18 48V16h7l14 20V16h7v32h-7L25 28v20z" fill="#fff"/></svg>',
);

screenshotScript(
  'QR screenshots',
  out,
  async (w, page, { email }) => {
    const { userId, organizationId } = await accountOf(w, email);
    const template = await w.env.prisma.template.findFirstOrThrow({ where: { organizationId } });
    const link = await new ClickFixtures(w.env.prisma).useOwner(organizationId, userId, template.id).link(organizationId, { title: 'Spring collection' });
    // The logo as the page uploads it: the SVG and its PNG rendering.
    await page.goto(`/app/links/${link.id}`);
    await page.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'northwind.svg', mimeType: 'image/svg+xml', buffer: LOGO });
    await page.getByText('Logo added to the QR code').waitFor();
    return link;
  },
  async ({ page: p, name }, link) => {
    await p.goto(`/app/links/${link.id}`);
    await p.getByRole('img', { name: /QR code for/ }).waitFor();
    await p.getByLabel('Dots').selectOption('rounded');
    await p.getByLabel('Corners').selectOption('dot');
    await p.getByLabel(/Show logo/).waitFor();
    await eventually(async () => ((await p.getByRole('link', { name: 'Download PNG' }).getAttribute('href')) ?? '').startsWith('blob:'));
    await p.waitForTimeout(400);
    // The panel cut from a full-page shot: an element shot scrolls under the sticky header at 390 px.
    const box = await p.getByRole('region', { name: 'QR code' }).boundingBox();
    const scrollY = Number(await p.evaluate('window.scrollY'));
    await p.screenshot({ path: name('qr'), fullPage: true, clip: { ...box!, y: box!.y + scrollY } });
  },
);
