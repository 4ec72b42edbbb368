import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
// Plain CommonJS (it runs as is in the render worker thread).
const styled = require('./qr-style.js');

const TEXT = 'https://go.example.com/AbC1234';
const options = (width: number, ecc = 'M') => ({ margin: 2, width, errorCorrectionLevel: ecc, color: { dark: '#112233ff', light: '#ffffffff' } });
const logoPng = (() => {
  const image = new PNG({ width: 120, height: 60 });
  for (let i = 0; i < 120 * 60; i++) image.data.set([220, 30, 30, 255], i * 4);
  return PNG.sync.write(image);
})();
const decode = (png: Buffer) => {
  const image = PNG.sync.read(png);
  return { text: jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data, image };
};

describe('styled QR codes (decisions §24)', () => {
  it('the symbol is the qrcode package’s own for the text (level H with a logo)', () => {
    for (const ecc of ['M', 'H']) {
      const theirs = QRCode.create(TEXT, { errorCorrectionLevel: ecc as 'M' | 'H' });
      const ours = styled.symbol(TEXT, ecc);
      expect([ours.size, Buffer.from(ours.data).equals(Buffer.from(theirs.modules.data))]).toEqual([theirs.modules.size, true]);
    }
  });

  describe.each(styled.DOTS as string[])('dots=%s', (dots) => {
    it.each(styled.CORNERS as string[])('corners=%s: PNG decodes back to the text, with and without a logo', (corners) => {
      for (const width of [160]) {
        for (const logo of [undefined, { contentType: 'image/png', body: logoPng, raster: null }]) {
          const png = styled.renderPng({ text: TEXT, format: 'png', options: options(width), style: { dots, corners }, logo });
          const { text, image } = decode(png);
          expect([dots, corners, width, !!logo, text]).toEqual([dots, corners, width, !!logo, TEXT]);
          expect(image.width).toBe(width);
        }
      }
    });
  });

  it('a logo is drawn in the centre (its colour there) and the corners keep the code colours', () => {
    const { image } = decode(styled.renderPng({ text: TEXT, format: 'png', options: options(512), style: { dots: 'rounded', corners: 'dot' }, logo: { contentType: 'image/png', body: logoPng, raster: null } }));
    const at = (x: number, y: number) => Array.from(image.data.subarray((y * 512 + x) * 4, (y * 512 + x) * 4 + 3));
    expect(at(256, 256)).toEqual([220, 30, 30]);
    expect(at(0, 0)).toEqual([255, 255, 255]);
  });

  it('the logo box is centred, at most 9 % of the area, and within every block’s error-correction budget, for short and long URLs', () => {
    for (const text of [TEXT, `https://go.example.com/${'x'.repeat(60)}`, `https://a-long-branded-domain.example.com/${'y'.repeat(180)}`]) {
      const sym = styled.symbol(text, 'H');
      const box = styled.logoBox(sym);
      expect(box).not.toBeNull();
      expect(box.start).toBe(sym.size - box.end);
      expect(((box.end - box.start) / sym.size) ** 2).toBeLessThanOrEqual(0.09);
      const budget = styled.logoBudget(sym, box);
      expect(budget.fits).toBe(true);
      expect(Math.max(...budget.damaged)).toBeLessThanOrEqual(budget.capacity);
    }
  });

  it('the error budget counts a box over a finder pattern as nothing and a box over half the symbol as too much', () => {
    const sym = styled.symbol(TEXT, 'H');
    expect(styled.logoBudget(sym, { start: 0, end: 7 }).damaged.every((d: number) => d === 0)).toBe(true);
    expect(styled.logoBudget(sym, { start: 4, end: sym.size - 4 }).fits).toBe(false);
  });

  it('corner styles: square fills the 7 × 7 ring and 3 × 3 centre; dot is round; rounded cuts the outer corner', () => {
    expect([styled.finderDark(0.1, 0.1, 'square'), styled.finderDark(0.1, 0.1, 'rounded'), styled.finderDark(0.1, 0.1, 'dot')]).toEqual([true, false, false]);
    expect([styled.finderDark(3.5, 0.5, 'dot'), styled.finderDark(1.5, 1.5, 'square'), styled.finderDark(3.5, 3.5, 'rounded')]).toEqual([true, false, true]);
    expect([styled.dotDark(0.02, 0.02, 'dots'), styled.dotDark(0.5, 0.5, 'dots'), styled.dotDark(0.02, 0.02, 'square')]).toEqual([false, true, true]);
    expect([styled.dotDark(0.02, 0.02, 'rounded', [0.5, 0, 0, 0]), styled.dotDark(0.98, 0.02, 'rounded', [0.5, 0, 0, 0])]).toEqual([false, true]);
  });

  it('SVG: one path of modules, one of corners, the logo embedded as a data URL, sized as asked', () => {
    const svg = styled.renderSvg({ text: TEXT, format: 'svg', options: options(256), style: { dots: 'dots', corners: 'rounded' }, logo: { contentType: 'image/svg+xml', body: Buffer.from('<svg/>'), raster: null } }).toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* viewBox="0 0 37 37" width="256" height="256">/);
    expect(svg).toContain('fill="#112233"');
    expect(svg).toContain(`href="data:image/svg+xml;base64,${Buffer.from('<svg/>').toString('base64')}"`);
    expect(svg.match(/<path /g)).toHaveLength(2);
  });
});
