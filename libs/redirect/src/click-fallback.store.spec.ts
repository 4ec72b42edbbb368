import { appendFileSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClickFallbackStore } from './click-fallback.store';
import { ClickCapturedJob } from '@dl/platform/click-codec';

const click = (id: string): ClickCapturedJob => ({
  id,
  linkId: 'l',
  organizationId: 'o',
  clickedAt: '2026-01-01T00:00:00.000Z',
  ip: null,
  userAgent: null,
  referrer: null,
  acceptLanguage: null,
  query: {},
});

describe('ClickFallbackStore (real files)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'dl-fallback-spec-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replays what was appended, in chunks, then deletes the files', async () => {
    const store = new ClickFallbackStore(dir);
    await store.init();
    await store.append([click('a'), click('b')]);
    await store.append([click('c')]);
    const sent: string[][] = [];
    expect(await store.replay(async (jobs) => void sent.push(jobs.map((j) => j.id)), 2)).toBe(3);
    expect(sent).toEqual([['a', 'b'], ['c']]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a failed send keeps the file (claimed) and the next pass sends it again', async () => {
    const store = new ClickFallbackStore(dir);
    await store.init();
    await store.append([click('a')]);
    await expect(store.replay(async () => Promise.reject(new Error('redis down')))).rejects.toThrow('redis down');
    expect(readdirSync(dir)).toHaveLength(1);
    const sent: string[] = [];
    await store.replay(async (jobs) => void sent.push(...jobs.map((j) => j.id)));
    expect(sent).toEqual(['a']);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('skips a torn last line; takes over a stale claim of a dead instance; leaves a fresh one alone', async () => {
    writeFileSync(join(dir, 'clicks-1-old-0.ndjson'), `${JSON.stringify(click('x'))}\n{"id":"tor`);
    const stale = join(dir, 'clicks-2-dead-0.dead.replaying');
    writeFileSync(stale, `${JSON.stringify(click('y'))}\n`);
    utimesSync(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000));
    const fresh = join(dir, 'clicks-3-busy-0.busy.replaying');
    appendFileSync(fresh, `${JSON.stringify(click('z'))}\n`);
    const store = new ClickFallbackStore(dir);
    await store.init();
    const sent: string[] = [];
    await store.replay(async (jobs) => void sent.push(...jobs.map((j) => j.id)));
    expect(sent.sort()).toEqual(['x', 'y']);
    expect(readdirSync(dir)).toEqual(['clicks-3-busy-0.busy.replaying']);
  });
});
