import { csvCell } from '@dl/platform/http';
import type { ClickExportRowDto } from './analytics-response.dto';

/** Column order of the CSV (and key order of the JSON objects). */
export const CLICK_EXPORT_COLUMNS: ReadonlyArray<keyof ClickExportRowDto> = [
  'id',
  'linkId',
  'clickedAt',
  'ipAddress',
  'userAgent',
  'referrer',
  'deviceType',
  'platform',
  'browser',
  'browserVersion',
  'os',
  'osVersion',
  'countryCode',
  'countryName',
  'region',
  'city',
  'timezone',
  'latitude',
  'longitude',
  'utmSource',
  'utmMedium',
  'utmCampaign',
  'utmTerm',
  'utmContent',
  'isBot',
  'variantIndex',
  'ruleIndex',
];

export const CLICK_EXPORT_CSV_HEADER = CLICK_EXPORT_COLUMNS.join(',');

/**
 * A CSV line of one click: every text cell through csvCell (quoted, formula-safe). Numbers
 * (coordinates, indexes) are written as numbers: a spreadsheet reads `-0.12` as a value, never a
 * formula, and csvCell's `'` would turn a western longitude into text.
 */
export function clickCsvLine(c: ClickExportRowDto): string {
  return CLICK_EXPORT_COLUMNS.map((k) => {
    const v = c[k];
    return typeof v === 'number' && Number.isFinite(v) ? String(v) : csvCell(v);
  }).join(',');
}

/** CSV text chunk by chunk: the header, then one line per click. */
export async function* clickCsvChunks(pages: AsyncIterable<ClickExportRowDto[]>): AsyncGenerator<string> {
  yield `${CLICK_EXPORT_CSV_HEADER}\r\n`;
  for await (const page of pages) if (page.length) yield page.map((c) => `${clickCsvLine(c)}\r\n`).join('');
}

/** A JSON array chunk by chunk (one page of objects per chunk). */
export async function* clickJsonChunks(pages: AsyncIterable<ClickExportRowDto[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const page of pages) {
    if (!page.length) continue;
    const body = page.map((c) => JSON.stringify(Object.fromEntries(CLICK_EXPORT_COLUMNS.map((k) => [k, c[k]])))).join(',');
    yield first ? body : `,${body}`;
    first = false;
  }
  yield ']';
}
