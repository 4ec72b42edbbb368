import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '@dl/platform/http';
import { CsvTable, readCsv } from '@dl/links';

export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;

export interface ImportUpload {
  fields: Record<string, unknown>;
  table: CsvTable;
}

/**
 * Reads the multipart form of POST /migrations/import: text fields, and the
 * `file` part streamed through the CSV parser (10 MB at most → 413).
 */
export async function readImportUpload(request: FastifyRequest): Promise<ImportUpload> {
  if (!request.isMultipart()) {
    throw new ValidationError({ file: 'Must be a multipart/form-data upload with a CSV file' });
  }
  const fields: Record<string, unknown> = {};
  let table: CsvTable | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new ValidationError({ [part.fieldname]: 'Unknown field' });
        }
        table = await readCsv(part.file);
        if (part.file.truncated) throw new PayloadTooLargeError();
      } else {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const e = err as { code?: string; statusCode?: number };
    if (e.statusCode === 413 || e.code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError();
    if (e.code === 'FST_FILES_LIMIT') throw new ValidationError({ file: 'Only one file may be uploaded' });
    if (e.code === 'FST_FIELDS_LIMIT' || e.code === 'FST_PARTS_LIMIT') throw new ValidationError({ form: 'Too many form fields' });
    throw err;
  }
  if (!table) throw new ValidationError({ file: 'A CSV file is required' });
  return { fields, table };
}
