/**
 * Destinations screened against a large feed: URLs/s, per CPU second, memory, load time (docs/performance.md).
 *   node --expose-gc tools/scripts/run.js bench/safety-matcher.ts [--entries 1000000] [--urls 200000] [--rounds 3]
 * Without --expose-gc the memory figures include garbage.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFeeds, parseBrands, screenLocally } from '@dl/safety';
import { arg, log, median, print, rateRounds, round, runBench } from './kit';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

async function writeFeed(path: string, entries: number): Promise<void> {
  const out = createWriteStream(path);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write('# generated feed\n');
  for (let i = 0; i < entries; i++) {
    switch (i % 4) {
      case 0:
        await write(`"${i}","2026-01-01 00:00:00","http://host${i}.malware.test/payload/${i}.exe","online","","malware_download","exe","",""\n`);
        break;
      case 1:
        await write(`https://login-${i}.phish.test/account/verify?id=${i}\n`);
        break;
      case 2:
        await write(`bad${i}.example\n`);
        break;
      default:
        await write(`0.0.0.0 tracker${i}.example\n`);
    }
  }
  await new Promise<void>((r) => out.end(r));
}

/** A URL to screen: every fourth one listed, spelled differently from its feed line. */
function urlFor(i: number, entries: number): string {
  const n = (i * 7919) % entries;
  switch (i % 8) {
    case 0:
      return `HTTP://HOST${n - (n % 4)}.Malware.Test:80/payload/${n - (n % 4)}.exe`;
    case 2:
      return `https://www.bad${n - (n % 4) + 2}.example./some/path`;
    case 4:
      return `https://login-${n - (n % 4) + 1}.phish.test/%61ccount/verify?id=${n - (n % 4) + 1}`;
    default:
      return `https://shop${i}.clean.test/products/${i}?utm_source=newsletter&ref=${i}`;
  }
}

runBench(async () => {
  const entries = arg('entries', 1_000_000);
  const urls = arg('urls', 200_000);
  const dir = mkdtempSync(join(tmpdir(), 'safety-bench-'));
  try {
    const path = join(dir, 'feed.txt');
    await writeFeed(path, entries);
    gc();
    const before = process.memoryUsage();
    const t0 = performance.now();
    const snapshot = await loadFeeds([path]);
    const loadMs = performance.now() - t0;
    gc();
    const after = process.memoryUsage();
    log('loaded', { entries: snapshot.matcher.size, malformed: snapshot.files[0].malformed, loadMs: Math.round(loadMs) });
    const brands = parseBrands('paypal.com,google.com,apple.com,microsoft.com,amazon.com');
    const sample = Array.from({ length: urls }, (_, i) => urlFor(i, entries));
    let blocked = 0;
    const rounds = await rateRounds(arg('rounds', 3), () => {
      blocked = 0;
      for (const u of sample) if (screenLocally(u, snapshot.matcher, brands).status === 'blocked') blocked++;
      return urls;
    });
    print({
      entries: snapshot.matcher.size,
      loadSeconds: round(loadMs / 1000, 2),
      tableMb: round(snapshot.matcher.bytes / 1048576),
      residentGrowthMb: round((after.rss - before.rss) / 1048576),
      heapAndBuffersGrowthMb: round((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1048576),
      urlsPerSecond: median(rounds.perSecond),
      urlsPerCpuSecond: median(rounds.perCpuSecond),
      rounds: rounds.perSecond,
      blockedShare: round(blocked / urls, 3),
    });
    // Keeps the snapshot alive until after the figures.
    if (snapshot.matcher.size < 0) log('unreachable');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
