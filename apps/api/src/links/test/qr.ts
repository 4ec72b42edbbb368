import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import request from 'supertest';

/** Decodes a PNG QR code back to its text (jsqr over pngjs pixels), with a pixel reader. */
export function decodeQr(png: Buffer): { text: string; width: number; pixel(x: number, y: number): number[] } {
  const image = PNG.sync.read(png);
  const result = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
  if (!result) throw new Error('no QR code found');
  const pixel = (x: number, y: number) => Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
  return { text: result.data, width: image.width, pixel };
}

/** supertest's parser for a binary answer (QR images): the body as one Buffer. */
export const binary = (res: request.Response, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};
