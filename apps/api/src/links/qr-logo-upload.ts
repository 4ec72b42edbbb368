import type { FastifyRequest } from 'fastify';
import { ValidationError } from '@dl/platform/http';
import { QR_LOGO_MAX_BYTES, QR_LOGO_MESSAGES } from '@dl/links';

export interface QrLogoUpload {
  logo: Buffer;
  raster: Buffer | null;
}

const PARTS = ['logo', 'raster'] as const;

/**
 * Reads the multipart form of PUT /api/links/:id/qr/logo: the `logo` file and, for an SVG,
 * an optional `raster` (its PNG rendering). Each part is read up to 100 KB: one byte more
 * → 400 `Validation error` naming the part (the rest of the upload is discarded unread).
 */
export async function readQrLogoUpload(request: FastifyRequest): Promise<QrLogoUpload> {
  if (!request.isMultipart()) throw new ValidationError({ logo: 'Must be a multipart/form-data upload with a PNG or SVG file' });
  const files: Partial<Record<(typeof PARTS)[number], Buffer>> = {};
  let current = 'logo';
  try {
    for await (const part of request.parts({ limits: { fileSize: QR_LOGO_MAX_BYTES, files: 2, fields: 0, parts: 2 } })) {
      current = part.fieldname;
      if (part.type !== 'file' || !(PARTS as readonly string[]).includes(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        throw new ValidationError({ [part.fieldname]: 'Unknown field' });
      }
      files[part.fieldname as (typeof PARTS)[number]] = await part.toBuffer();
    }
  } catch (err) {
    const e = err as { code?: string; statusCode?: number };
    // The count limits first: @fastify/multipart gives them status 413 too.
    if (e.code === 'FST_FILES_LIMIT' || e.code === 'FST_PARTS_LIMIT' || e.code === 'FST_FIELDS_LIMIT') {
      throw new ValidationError({ form: 'Only the logo and its raster may be uploaded' });
    }
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError({ [current]: QR_LOGO_MESSAGES.tooLarge });
    throw err;
  }
  if (!files.logo?.length) throw new ValidationError({ logo: QR_LOGO_MESSAGES.required });
  return { logo: files.logo, raster: files.raster?.length ? files.raster : null };
}
