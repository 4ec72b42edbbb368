import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { BadRequestError } from '@dl/platform/http';

export interface CsvTable {
  header: string[];
  /** Data records (header excluded), each with its 1-based data row number. */
  rows: Array<{ row: number; cells: string[] }>;
}

/**
 * Parses a CSV stream with csv-parse (streaming, BOM-aware, quoted fields).
 * A malformed file (unclosed quote, bad encoding of quotes) is a 400 before
 * anything is written; rows with a wrong number of cells are kept and reported
 * per row by the importer.
 */
export async function readCsv(stream: Readable, maxRows = 200_000): Promise<CsvTable> {
  const source = stream;
  const parser = source.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, max_record_size: 64 * 1024 }),
  );
  // pipe() does not forward source errors (e.g. the upload's size limit): do it here.
  source.on('error', (err) => parser.destroy(err));
  let header: string[] | null = null;
  const rows: CsvTable['rows'] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!header) {
        header = record;
        continue;
      }
      if (rows.length >= maxRows) throw new BadRequestError(`Invalid CSV: more than ${maxRows} rows`);
      rows.push({ row: rows.length + 1, cells: record });
    }
  } catch (err) {
    stream.resume();
    if (err instanceof BadRequestError) throw err;
    const e = err as { code?: string; statusCode?: number; message?: string; lines?: number };
    if (e.code?.startsWith('CSV_')) {
      throw new BadRequestError(`Invalid CSV: ${e.message?.replace(/\s+/g, ' ').trim() ?? 'malformed file'}`);
    }
    throw err;
  }
  if (!header) throw new BadRequestError('Invalid CSV: the file is empty');
  return { header, rows };
}
