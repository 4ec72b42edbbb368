import { appendFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@dl/platform/config';
import { SafetyService } from './safety.service';

describe(SafetyService.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'safety-'));
  const feed = join(dir, 'feed.txt');
  writeFileSync(feed, 'evil.test\nnot a line\n');
  const config = loadConfig({
    DATABASE_URL: 'postgresql://unused/db',
    THREAT_FEEDS: `${feed}, ${join(dir, 'later.txt')}`,
    THREAT_FEEDS_POLL_MS: '100',
    PROTECTED_BRANDS: 'paypal.com',
  });
  const service = new SafetyService(config);
  afterAll(() => service.onModuleDestroy());

  it('screens a batch in order, waiting for the first load', async () => {
    expect(await service.screen(['https://WWW.EVIL.TEST./x', 'https://ok.test/', 'https://paypa1.com/', 'https://a:b@ok.test/'])).toEqual([
      { status: 'blocked', reason: 'blocklisted domain' },
      { status: 'ok', reason: null },
      { status: 'suspicious', reason: 'look-alike of paypal.com' },
      { status: 'blocked', reason: 'credentials in URL' },
    ]);
    expect(service.snapshot.files.map((f) => [f.entries, f.malformed])).toEqual([
      [1, 1],
      [0, 0],
    ]);
  });

  it('picks up a feed that changes or appears, by polling', async () => {
    const loaded = new Promise<void>((resolve) => service.onFeedsLoaded(() => resolve()));
    appendFileSync(feed, 'https://phish.test/login\n');
    writeFileSync(join(dir, 'later.txt'), '0.0.0.0 late.test\n');
    await loaded;
    await service.reloadFeedsIfChanged();
    expect(await service.screen(['http://phish.test/login', 'http://late.test/'])).toEqual([
      { status: 'blocked', reason: 'blocklisted URL' },
      { status: 'blocked', reason: 'blocklisted domain' },
    ]);
  });
});
