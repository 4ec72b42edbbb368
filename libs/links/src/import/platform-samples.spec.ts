import { Readable } from 'node:stream';
import { IMPORTED_SAMPLES, importFixture } from '@dl/testing';
import { readCsv } from './csv-reader';
import { mapRow, planColumns } from './import-columns';
import { MappedRow } from './mapped-row';
import { COMPETITOR_PLATFORMS } from './platform-formats';

const NOW = new Date('2026-01-01T00:00:00Z');

/** A file as an upload streams it: in chunks of `size` bytes, so records (and multi-byte characters) straddle chunks. */
function streamOf(text: string, size: number): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

/** What a row carries over, in the samples' terms. */
const carried = (r: MappedRow) => ({
  code: r.shortCode,
  url: r.fields.originalUrl,
  title: r.fields.title ?? null,
  tags: r.fields.tags ?? [],
  createdAt: r.createdAt?.toISOString(),
  id: r.competitorId,
  ...(r.clicks === null || r.clicks === undefined ? {} : { clicks: r.clicks }),
});

/** A file read as the importer reads an upload with `platform: auto`: the platform it is recognized as, and each row. */
async function read(text: string, chunk = 64 * 1024) {
  const table = await readCsv(streamOf(text, chunk));
  const plan = planColumns(table.header, 'auto');
  return { platform: plan.platform?.platform, rows: table.rows.map(({ cells }) => mapRow(plan, cells, NOW)) };
}

describe('platform exports: the sample files read as uploads', () => {
  it.each(COMPETITOR_PLATFORMS)('%s: recognized from its header; codes, titles, tags, created dates, source ids and click counts carried', async (platform) => {
    const { platform: detected, rows } = await read(importFixture(platform), 7);
    expect({ platform: detected, rows: rows.map(carried) }).toEqual({ platform, rows: IMPORTED_SAMPLES[platform] });
  });

  it.each(COMPETITOR_PLATFORMS)('%s: with a byte-order mark and Windows line endings, the same rows (a quoted newline keeps the file’s line ending)', async (platform) => {
    const { platform: detected, rows } = await read(`\uFEFF${importFixture(platform).replace(/\n/g, '\r\n')}`);
    const expected = IMPORTED_SAMPLES[platform].map((s) => ({ ...s, title: s.title?.replace(/\n/g, '\r\n') ?? null }));
    expect({ platform: detected, rows: rows.map(carried) }).toEqual({ platform, rows: expected });
  });

  it('a 100,000-row export (BOM, CRLF, every cell quoted, quoted newlines) is read whole, each row mapped', async () => {
    const n = 100_000;
    const lines = ['\uFEFF"createdAt","domain","shortCode","shortUrl","longUrl","title","tags","visits"'];
    for (let i = 1; i <= n; i++) {
      const title = i % 10 === 0 ? `Row ${i}\r\nsecond line` : `Row ${i}`;
      lines.push(`"2024-01-01T00:00:00+00:00","s.example.com","big-${i}","https://s.example.com/big-${i}","https://example.com/big/${i}","${title}","a|b",${i}`);
    }
    const csv = `${lines.join('\r\n')}\r\n`;
    const { platform, rows } = await read(csv);
    expect(platform).toBe('shlink');
    expect(rows).toHaveLength(n);
    expect(carried(rows[n - 1])).toEqual({ code: `big-${n}`, url: `https://example.com/big/${n}`, title: `Row ${n}\r\nsecond line`, tags: ['a', 'b'], createdAt: '2024-01-01T00:00:00.000Z', id: null, clicks: n });
    expect(new Set(rows.map((r) => r.shortCode)).size).toBe(n);
  }, 120_000);
});
