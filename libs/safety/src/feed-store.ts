/**
 * The operator's threat feeds (THREAT_FEEDS) loaded into one ThreatMatcher. Each file is read
 * line by line (a million-line feed never sits in memory as one string); malformed lines are
 * skipped and counted; a missing or unreadable file counts as empty and is tried again. A new
 * matcher replaces the old one only when fully built, so screening never sees half a feed.
 * Files are polled (size and mtime) so an edit, a replacement by rename or a feed that appears
 * later is picked up within one poll.
 */
import { createReadStream, promises as fs } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseFeedLine } from './feed-parser';
import { ThreatMatcher } from './threat-matcher';

export interface FeedFileStats {
  path: string;
  entries: number;
  malformed: number;
  /** Why the file could not be read, or null. */
  error: string | null;
}

export interface FeedSnapshot {
  matcher: ThreatMatcher;
  files: FeedFileStats[];
  /** Changes whenever any file's content may have changed (size + mtime of each); '' with no feeds. */
  version: string;
  loadedAt: Date;
}

async function signature(paths: string[]): Promise<string> {
  const parts = await Promise.all(
    paths.map(async (p) => {
      try {
        const s = await fs.stat(p);
        return `${p}:${s.size}:${s.mtimeMs}:${s.ino}`;
      } catch {
        return `${p}:missing`;
      }
    }),
  );
  return paths.length ? parts.join('|') : '';
}

async function loadFile(path: string, matcher: ThreatMatcher): Promise<FeedFileStats> {
  const stats: FeedFileStats = { path, entries: 0, malformed: 0, error: null };
  try {
    const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      const parsed = parseFeedLine(line);
      if (parsed === 'skip') continue;
      if (parsed === 'malformed') {
        stats.malformed++;
        continue;
      }
      matcher.add(parsed.kind, parsed.key, parsed.reason);
      stats.entries++;
    }
  } catch (err) {
    stats.error = err instanceof Error ? err.message : String(err);
  }
  return stats;
}

/** Loads every feed file into a fresh matcher. */
export async function loadFeeds(paths: string[]): Promise<FeedSnapshot> {
  const version = await signature(paths);
  let expected = 1024;
  for (const p of paths) {
    // About 40 bytes a line in real feeds: a size hint that avoids most table growths.
    const size = await fs.stat(p).then((s) => s.size, () => 0);
    expected += Math.ceil(size / 40);
  }
  const matcher = new ThreatMatcher(expected);
  const files: FeedFileStats[] = [];
  for (const p of paths) files.push(await loadFile(p, matcher));
  return { matcher, files, version, loadedAt: new Date() };
}

export function parseFeedPaths(list: string | undefined): string[] {
  return (list ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}

/** Holds the current snapshot and reloads it when a file changes or on demand. */
export class FeedStore {
  private current: FeedSnapshot = { matcher: new ThreatMatcher(), files: [], version: '', loadedAt: new Date(0) };
  private loading: Promise<FeedSnapshot> | null = null;
  private timer: NodeJS.Timeout | null = null;
  readonly ready: Promise<FeedSnapshot>;

  constructor(
    private readonly paths: string[],
    private readonly onLoad: (snapshot: FeedSnapshot, previousVersion: string) => void = () => undefined,
  ) {
    this.ready = this.reload();
  }

  get snapshot(): FeedSnapshot {
    return this.current;
  }

  /** Reloads every file now (joins a reload already under way). */
  reload(): Promise<FeedSnapshot> {
    if (this.loading) return this.loading;
    this.loading = loadFeeds(this.paths).then(
      (snapshot) => {
        const previous = this.current.version;
        this.current = snapshot;
        this.loading = null;
        this.onLoad(snapshot, previous);
        return snapshot;
      },
      (err: unknown) => {
        this.loading = null;
        throw err;
      },
    );
    return this.loading;
  }

  /** Reloads when a file's size, mtime or inode changed since the last load. */
  async reloadIfChanged(): Promise<boolean> {
    if (this.loading) return false;
    if ((await signature(this.paths)) === this.current.version) return false;
    await this.reload();
    return true;
  }

  /** Polls the files every `intervalMs`. */
  watch(intervalMs: number): void {
    if (this.timer || !this.paths.length) return;
    this.timer = setInterval(() => {
      this.reloadIfChanged().catch(() => undefined);
    }, intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
