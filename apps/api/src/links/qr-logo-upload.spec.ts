import multipart from '@fastify/multipart';
import Fastify, { FastifyInstance } from 'fastify';
import { PNG } from 'pngjs';
import { errorBodyOf } from '@dl/testing';
import { readQrLogoUpload } from './qr-logo-upload';

type Part = { name: string; body: Buffer; filename?: string; contentType?: string };
const BOUNDARY = 'qr-logo-boundary';

/** A multipart/form-data body of file parts (or a text field when a part has no filename). */
function form(parts: Part[]): Buffer {
  const chunks = parts.flatMap((p) => [
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n` +
        (p.contentType ? `Content-Type: ${p.contentType}\r\n` : '') +
        '\r\n',
    ),
    p.body,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...chunks, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}
const png = (name: string, body: Buffer): Part => ({ name, body, filename: `${name}.png`, contentType: 'image/png' });
const RED = PNG.sync.write(new PNG({ width: 90, height: 60 }));

/**
 * How PUT /api/links/:id/qr/logo reads its form (multipart registered as the api app registers it).
 * Over HTTP (qr-logo.e2e.spec.ts): one refusal; what the bytes may be: libs/links/src/qr-logo.spec.ts
 * and qr.service.medium.spec.ts.
 */
describe(readQrLogoUpload.name, () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });
    app.put('/logo', async (request, reply) => {
      try {
        const upload = await readQrLogoUpload(request);
        return { logo: upload.logo.length, raster: upload.raster?.length ?? null };
      } catch (err) {
        const body = await errorBodyOf(Promise.reject(err));
        return reply.code(body.statusCode).send(body);
      }
    });
  });
  afterAll(() => app.close());

  const upload = async (parts: Part[]) => {
    const res = await app.inject({ method: 'PUT', url: '/logo', headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, payload: form(parts) });
    return { status: res.statusCode, body: res.json() };
  };
  const refused = (validation: Record<string, string>) => ({ status: 400, body: { error: 'Bad Request', message: 'Validation error', statusCode: 400, validation } });

  it('reads the logo and, for an SVG, its raster', async () => {
    expect(await upload([png('logo', RED)])).toEqual({ status: 200, body: { logo: RED.length, raster: null } });
    const svg = { name: 'logo', body: Buffer.from('<svg/>'), filename: 'logo.svg', contentType: 'image/svg+xml' };
    expect(await upload([svg, png('raster', RED)])).toEqual({ status: 200, body: { logo: 6, raster: RED.length } });
  });

  it.each([
    ['100 KB + 1', [png('logo', Buffer.alloc(100 * 1024 + 1, 7))], { logo: 'Must be at most 100 KB' }],
    ['a raster of 100 KB + 1', [png('logo', RED), png('raster', Buffer.alloc(100 * 1024 + 1, 7))], { raster: 'Must be at most 100 KB' }],
    ['no logo part', [png('raster', RED)], { logo: 'A PNG or SVG file is required' }],
    ['an empty logo', [png('logo', Buffer.alloc(0))], { logo: 'A PNG or SVG file is required' }],
    ['an unknown part', [png('picture', RED)], { picture: 'Unknown field' }],
  ])('%s → 400 Validation error naming the part', async (_name, parts, validation) => {
    expect(await upload(parts)).toEqual(refused(validation));
  });

  it('a third part or a text field → 400 naming the form; a body that is not multipart → 400 naming the logo', async () => {
    const form = refused({ form: 'Only the logo and its raster may be uploaded' });
    expect(await upload([png('logo', RED), png('raster', RED), png('raster', RED)])).toEqual(form);
    expect(await upload([{ name: 'logo', body: Buffer.from('data:image/png;base64,AAAA') }])).toEqual(form);
    const json = await app.inject({ method: 'PUT', url: '/logo', payload: { logo: 'data:image/png;base64,AAAA' } });
    expect([json.statusCode, json.json()]).toEqual([400, refused({ logo: 'Must be a multipart/form-data upload with a PNG or SVG file' }).body]);
  });
});
