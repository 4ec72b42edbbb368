import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * Parameters and COPY data of the click pipeline's statements, encoded without holding a
 * batch's text twice: strings are written as UTF-8 as soon as they are made.
 */

/** A NUL (JSON `\u0000`, which Postgres cannot turn into text) as the raw byte, unless its backslash is itself escaped. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/** The scratch space `utf8Bytes` writes into: kept between calls, and dropped back to this size after a larger batch. */
const SCRATCH_BYTES = 1 << 21;
let scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
let scratchInUse = false;

/** What `utf8Bytes` hands its writer: strings appended as UTF-8, and single bytes. */
export interface Utf8Out {
  text(value: string): void;
  byte(value: number): void;
}

/** Appends to the scratch space, which grows (doubling) when the next string might not fit. */
class Utf8Writer implements Utf8Out {
  private at = 0;

  text(value: string): void {
    // UTF-8 needs at most 3 bytes per UTF-16 unit (a surrogate pair's 4 bytes are 2 units).
    this.room(value.length * 3);
    this.at += scratch.write(value, this.at);
  }

  byte(value: number): void {
    this.room(1);
    scratch[this.at++] = value;
  }

  /** A copy of what was written, at its exact size. */
  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this.at);
    scratch.copy(out, 0, 0, this.at);
    return out;
  }

  private room(bytes: number): void {
    if (this.at + bytes <= scratch.length) return;
    const bigger = Buffer.allocUnsafeSlow(Math.max(scratch.length * 2, this.at + bytes));
    scratch.copy(bigger, 0, 0, this.at);
    scratch = bigger;
  }
}

/**
 * What `write` writes, as UTF-8 bytes in one buffer of the exact size. Each string is encoded
 * as soon as it is made, into a scratch space the process keeps, and is garbage from then on: a
 * batch's rows are never alive together as strings (they would outlive the worker's scavenges),
 * and no second pass measures them. The copy out is of the exact size, so a batch waiting for
 * the database holds no slack. Synchronous: `write` may not call it again.
 */
export function utf8Bytes(write: (out: Utf8Out) => void): Buffer {
  if (scratchInUse) throw new Error('utf8Bytes is not reentrant');
  scratchInUse = true;
  try {
    const out = new Utf8Writer();
    write(out);
    return out.bytes();
  } finally {
    scratchInUse = false;
    // A batch of unusually long rows does not keep its scratch space for good.
    if (scratch.length > 2 * SCRATCH_BYTES) scratch = Buffer.allocUnsafeSlow(SCRATCH_BYTES);
  }
}

/**
 * Rows as one `json` parameter: a JSON array in UTF-8, which node-postgres sends as a binary
 * parameter (a json value's binary form is its text). Each row is stringified on its own and
 * written at once (`utf8Bytes`): `JSON.stringify` of a whole batch returns a tree of string
 * parts that the driver flattens into one string (two bytes a character as soon as one city
 * name is outside Latin-1) before encoding it, three copies of a batch.
 *
 * A NUL is sent as the raw byte, so Postgres refuses the batch as it refuses a NUL in any text
 * parameter (22021), and the bisect finds the click (decisions §14). Lone surrogates never get
 * here: enrichment makes text well formed, as the driver's UTF-8 encoding would.
 */
export function jsonBytes<T extends object>(rows: readonly T[], toRow?: (row: T) => object): Buffer {
  return utf8Bytes((out) => {
    out.byte(0x5b); // [
    for (let k = 0; k < rows.length; k++) {
      if (k) out.byte(0x2c); // ,
      const json = JSON.stringify(toRow ? toRow(rows[k]) : rows[k]);
      out.text(json.includes('\\u0000') ? json.replace(ESCAPED_NUL, '$1\0') : json);
    }
    out.byte(0x5d); // ]
  });
}

/**
 * A batch's json parameter, built when the driver writes the statement rather than before:
 * node-postgres keeps a query's values until it completes, and a batch's JSON (megabytes) held
 * that long outlives the young generation and piles up in V8's large-object space until a full
 * collection. Built at bind time it is garbage as soon as the driver has copied it into the
 * message. `toRow`, when given, maps each row as it is written.
 */
export function lazyJsonParam<T extends object>(rows: readonly T[], toRow?: (row: T) => object): { toPostgres(): Buffer } {
  return { toPostgres: () => jsonBytes(rows, toRow) };
}

/** The characters COPY's text format reads specially inside a value. */
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A text value in COPY's text format: `\N` for null, a backslash, tab, newline or carriage return escaped. */
export function copyText(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch]) : value;
}

/** A number in COPY's text format (`\N` for null). */
export const copyNumber = (value: number | null): string => (value === null ? '\\N' : String(value));

/**
 * Rows as COPY's text-format data in UTF-8, one `line` each, written as they are made
 * (`utf8Bytes`). A NUL stays the raw byte, which Postgres refuses (22021) as in any text.
 */
export function copyBytes<T>(rows: readonly T[], line: (row: T) => string): Buffer {
  return utf8Bytes((out) => {
    for (let k = 0; k < rows.length; k++) out.text(line(rows[k]));
  });
}

/** Runs `COPY … FROM STDIN` with `data` on the client's connection; resolves once Postgres has taken it all. */
export function copyFromBuffer(client: Pick<PoolClient, 'query'>, sql: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = client.query(copyFrom(sql));
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(data);
  });
}
