/** A cell starting with one of these is a formula to Excel, LibreOffice and Google Sheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180 quoting) that a spreadsheet cannot run (decisions §14, CSV
 * injection): a value starting with `=`, `+`, `-`, `@`, tab or carriage return gets a
 * leading `'`, which spreadsheets show as text. Every CSV the apps stream goes through this.
 */
export function csvCell(value: string | number | boolean | null | undefined, forceQuotes = false): string {
  if (value === null || value === undefined) return forceQuotes ? '""' : '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return forceQuotes || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line (no line ending) of escaped cells. */
export function csvLine(values: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return values.map((v) => csvCell(v)).join(',');
}
