import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFeedLine } from './feed-parser';
import { FeedStore, loadFeeds } from './feed-store';

describe('parseFeedLine', () => {
  it.each([
    ['"3285746","2024-11-02 10:01:02","http://Evil.Test:80/a.exe","online","2024-11-02","malware_download","exe","https://urlhaus.abuse.ch/url/3285746/","anon"', { kind: 'url', key: 'evil.test/a.exe', reason: 'malware' }],
    ['http://evil.test/login?x=%7e', { kind: 'url', key: 'evil.test/login?x=~', reason: 'blocklisted URL' }],
    ['Evil.Test.', { kind: 'domain', key: 'evil.test', reason: 'blocklisted domain' }],
    ['0.0.0.0 ads.evil.test  # tracker', { kind: 'domain', key: 'ads.evil.test', reason: 'blocklisted domain' }],
    ['127.0.0.1\tbücher.test', { kind: 'domain', key: 'xn--bcher-kva.test', reason: 'blocklisted domain' }],
  ])('%s', (line, entry) => {
    expect(parseFeedLine(line)).toEqual(entry);
  });

  it.each(['', '   ', '# comment', '! adblock comment', '127.0.0.1 localhost', '"id","dateadded","url","url_status"'])('skips %j', (line) => {
    expect(parseFeedLine(line)).toBe('skip');
  });

  it.each(['"broken', '"1","2"', 'http://', '||evil.test^', 'not a domain', '0.0.0.0 bad/host', 'javascript://x'])('counts %j as malformed', (line) => {
    expect(parseFeedLine(line)).toBe('malformed');
  });
});

describe('loadFeeds', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feeds-'));

  it('loads every format, counts malformed lines, and matches what each entry covers', async () => {
    const urlhaus = join(dir, 'urlhaus.csv');
    writeFileSync(urlhaus, '# URLhaus\n"1","2024-01-01","http://malware.test/x.exe","online","","malware_download","","",""\n"broken\n');
    const urls = join(dir, 'urls.txt');
    writeFileSync(urls, 'https://phish.test/login\n\u0000garbage\n');
    const domains = join(dir, 'domains.txt');
    writeFileSync(domains, 'bad.test\n0.0.0.0 tracker.test\n');
    const snapshot = await loadFeeds([urlhaus, urls, domains, join(dir, 'missing.txt')]);
    expect(snapshot.files.map((f) => [f.entries, f.malformed, f.error === null])).toEqual([
      [1, 1, true],
      [1, 1, true],
      [2, 0, true],
      [0, 0, false],
    ]);
    const m = snapshot.matcher;
    expect(m.match('HTTP://MALWARE.TEST./x.exe')).toBe('malware');
    expect(m.match('http://malware.test/other')).toBeNull();
    expect(m.match('http://phish.test:80/%6cogin')).toBe('blocklisted URL');
    expect(m.match('https://a.b.bad.test/anything')).toBe('blocklisted domain');
    expect(m.match('https://notbad.test/')).toBeNull();
    expect(m.match('https://tracker.test./')).toBe('blocklisted domain');
  });

  it('reloads a changed file, also when it is replaced by a rename', async () => {
    const path = join(dir, 'live.txt');
    writeFileSync(path, 'one.test\n');
    const store = new FeedStore([path]);
    await store.ready;
    expect(store.snapshot.matcher.match('http://one.test/')).toBe('blocklisted domain');
    expect(await store.reloadIfChanged()).toBe(false);
    writeFileSync(join(dir, 'live.tmp'), 'two.test\n');
    renameSync(join(dir, 'live.tmp'), path);
    expect(await store.reloadIfChanged()).toBe(true);
    expect(store.snapshot.matcher.match('http://one.test/')).toBeNull();
    expect(store.snapshot.matcher.match('http://two.test/')).toBe('blocklisted domain');
    store.close();
  });
});
