import fc from 'fast-check';
import { PNG } from 'pngjs';
import { errorBodyOf } from '@dl/testing';
import { isSafeSvg, QR_LOGO_MAX_BYTES, sniffQrLogo } from './qr-logo';

const png = (width: number, height: number) => PNG.sync.write(new PNG({ width, height }));
const svg = (inner = '<circle cx="5" cy="5" r="4" fill="#f00"/>') => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${inner}</svg>`);
const refusal = async (bytes: Buffer, field = 'logo') => (await errorBodyOf(Promise.resolve().then(() => sniffQrLogo(bytes, field)))) as { validation: Record<string, string> };

describe('QR logo sniffing (decisions §24: PNG or SVG, at most 100 KB)', () => {
  it('PNG and SVG are told from their bytes', () => {
    expect(sniffQrLogo(png(64, 32))).toBe('image/png');
    expect(sniffQrLogo(svg())).toBe('image/svg+xml');
    expect(sniffQrLogo(Buffer.from(`\uFEFF<?xml version="1.0"?>\n<!-- logo -->\n${svg().toString()}\n`))).toBe('image/svg+xml');
  });

  it.each([
    ['text named .png', Buffer.from('just text, not an image'), 'Must be a PNG or SVG image'],
    ['a JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]), 'Must be a PNG or SVG image'],
    ['HTML holding an svg', Buffer.from('<html><svg></svg></html>'), 'Must be a PNG or SVG image'],
    ['invalid UTF-8', Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x20, 0xff, 0x3e, 0x3c, 0x2f, 0x73, 0x76, 0x67, 0x3e]), 'Must be a PNG or SVG image'],
    ['100 KB + 1', Buffer.concat([png(8, 8), Buffer.alloc(QR_LOGO_MAX_BYTES)]), 'Must be at most 100 KB'],
    ['a PNG of 4096 × 16 pixels', png(4096, 16), 'Must be at most 2048 × 2048 pixels'],
  ])('%s → 400 naming the field', async (_name, bytes, message) => {
    expect((await refusal(bytes)).validation).toEqual({ logo: message });
    expect((await refusal(bytes, 'raster')).validation).toEqual({ raster: message });
  });

  const UNSAFE = [
    '<script>alert(1)</script>',
    '<svg:script>alert(1)</svg:script>',
    '<foreignObject><div/></foreignObject>',
    '<circle r="4" onload="alert(1)"/>',
    '<circle r="4" ONCLICK = "x()"/>',
    '<image href="https://evil.example/x.png"/>',
    '<image xlink:href="data:image/svg+xml;base64,PHN2Zz4="/>',
    '<use href="http://evil.example/sprite.svg#a"/>',
    '<rect fill="url(https://evil.example/p)"/>',
    '<rect style="fill:u&#114;l(//evil.example/p)"/>',
    '<style>@import "https://evil.example/a.css";</style>',
    '<a href="javascript:alert(1)"><rect/></a>',
    '<set attributeName="href" to="javascript:alert(1)"/>',
    '<animate attributeName="x"/>',
    '<iframe src="x"/>',
  ];
  it.each(UNSAFE)('an SVG with %s → 400', async (inner) => {
    expect((await refusal(svg(inner))).validation).toEqual({ logo: 'SVG must not contain scripts, event handlers, foreignObject, entities or external references' });
  });

  it('an SVG with a DOCTYPE or entities → 400', async () => {
    const withEntity = Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>');
    expect((await refusal(withEntity)).validation).toEqual({ logo: expect.stringMatching(/^SVG must not contain/) });
  });

  it('keeps what logos are made of: gradients, fragment references, filters, text', () => {
    const logo =
      '<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient><filter id="f"><feOffset dx="1"/></filter></defs>' +
      '<rect fill="url(#g)" filter="url( \'#f\')" width="10" height="10"/><use href="#g"/><use xlink:href= "#g"/><text font-family="Sans">Acme on top</text>';
    expect(sniffQrLogo(svg(logo))).toBe('image/svg+xml');
  });

  it('no string of printable characters inside an SVG carries a script tag or handler past the check', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('<script>', '<SCRIPT >', ' onload=', ' href="//x"', '<foreignObject>'), fc.string(), (before, evil, after) => {
        expect(isSafeSvg(`<svg>${before}${evil}${after}</svg>`)).toBe(false);
      }),
    );
  });
});
