import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The sample exports of other platforms (decisions §26), one per platform, each written from its documented columns. */
export const IMPORT_FIXTURES_DIR = join(__dirname, '../../links/src/import/fixtures');

/** A platform's sample export, as its file holds it. */
export const importFixture = (platform: string): string => readFileSync(join(IMPORT_FIXTURES_DIR, `${platform}.csv`), 'utf8');

/** What one row of a sample export carries over. */
export interface ImportedSample {
  code: string;
  url: string;
  title: string | null;
  tags: string[];
  createdAt: string;
  id: string | null;
  /** The source's click count (absent: the export has none). */
  clicks?: number;
}

/** Each sample export's rows, as they are to be read and stored (the parser's unit spec and the import e2e both hold to it). */
export const IMPORTED_SAMPLES: Record<string, ImportedSample[]> = {
  bitly: [
    { code: 'bitly-spring', url: 'https://example.com/bitly/spring?ref=mail', title: 'Spring sale', tags: ['spring', 'sale'], createdAt: '2023-04-01T10:15:00.000Z', id: 'bit.ly/3BtlyA1', clicks: 1520 },
    { code: '3BtlyA2', url: 'https://example.com/bitly/blog', title: 'Blog post', tags: [], createdAt: '2022-11-20T08:00:00.000Z', id: 'bit.ly/3BtlyA2', clicks: 7 },
  ],
  rebrandly: [
    { code: 'rb-launch', url: 'https://example.com/rebrandly/launch', title: 'Launch video', tags: ['video', 'launch'], createdAt: '2021-07-13T10:54:12.000Z', id: 'ffs24cc5b6ee4a5gh7897b06ac2d16d4', clicks: 42 },
    { code: 'rb-pricing', url: 'https://example.com/rebrandly/pricing', title: 'Pricing, annual', tags: [], createdAt: '2020-02-02T00:00:00.000Z', id: '22f4ac5b6ee4a5gh7897b06ac2d16d00', clicks: 0 },
  ],
  shortio: [
    { code: 'sio-docs', url: 'https://example.com/shortio/docs', title: 'Docs home', tags: ['docs', 'help'], createdAt: '2024-01-05T12:00:00.000Z', id: 'lnk_4Gx_abc1', clicks: 310 },
    { code: 'sio-app', url: 'https://example.com/shortio/app', title: 'App download', tags: [], createdAt: '2024-02-06T12:00:00.000Z', id: 'lnk_4Gx_abc2', clicks: 12 },
  ],
  dub: [
    // Dub's export has no title column.
    { code: 'dub-pricing', url: 'https://example.com/dub/pricing', title: null, tags: ['pricing', 'web'], createdAt: '2024-05-01T09:00:00.000Z', id: 'link_1J8ZkF2m', clicks: 2048 },
    { code: 'dub-careers', url: 'https://example.com/dub/careers', title: null, tags: [], createdAt: '2024-06-11T17:30:00.000Z', id: 'link_1J8ZkF2n', clicks: 5 },
  ],
  shlink: [
    // Every cell quoted, as json2csv writes it, and a quoted newline inside the title.
    { code: 'shl-news', url: 'https://example.com/shlink/news', title: 'Newsletter\nFebruary', tags: ['newsletter', 'email'], createdAt: '2023-02-10T09:30:00.000Z', id: null, clicks: 99 },
    { code: 'shl-faq', url: 'https://example.com/shlink/faq', title: null, tags: [], createdAt: '2023-03-01T00:00:00.000Z', id: null, clicks: 0 },
  ],
  kutt: [
    // jq's @csv: text quoted, numbers bare, null empty.
    { code: 'kutt-gh', url: 'https://example.com/kutt/github', title: 'Our GitHub', tags: [], createdAt: '2022-08-08T08:08:08.000Z', id: '6e0bcd4c-9a1e-4a0f-8a5e-0f2a3b4c5d61', clicks: 77 },
    { code: 'kutt-jobs', url: 'https://example.com/kutt/jobs', title: null, tags: [], createdAt: '2022-09-09T09:09:09.000Z', id: '6e0bcd4c-9a1e-4a0f-8a5e-0f2a3b4c5d62', clicks: 3 },
  ],
  yourls: [
    { code: 'yl-wiki', url: 'https://example.com/yourls/wiki', title: 'Team wiki', tags: [], createdAt: '2019-05-04T13:37:00.000Z', id: null, clicks: 1234 },
    { code: 'yl-status', url: 'https://example.com/yourls/status', title: 'Status page', tags: [], createdAt: '2019-06-01T00:00:00.000Z', id: null, clicks: 56 },
  ],
  firebase: [
    // FDL's export has no click counts nor tags; the link name is the title.
    { code: 'fdl-promo', url: 'https://example.com/fdl/promo', title: 'Winter promo', tags: [], createdAt: '2022-12-01T10:00:00.000Z', id: null },
    { code: 'fdl-invite', url: 'https://example.com/fdl/invite', title: null, tags: [], createdAt: '2023-01-15T16:45:00.000Z', id: null },
  ],
};
