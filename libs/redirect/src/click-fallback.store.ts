import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Logger } from '@nestjs/common';
import { ClickCapturedJob } from '@dl/platform/click-codec';

const SUFFIX = '.ndjson';
/** A claimed file of a replay that died (crashed instance) is taken over after this long. */
const STALE_CLAIM_MS = 60_000;

/**
 * The durable local fallback for clicks when Redis is unreachable: append-only NDJSON
 * files, one batch per write, fsync'd before the write counts. Replay claims a closed file
 * by renaming it (so two instances sharing the folder never replay one file twice at once),
 * sends its clicks (in chunks: one `click.batch` job each), then deletes it. A click replayed
 * twice is harmless: a re-sent chunk has the same job id, and the click id is the clicks
 * row's primary key (the consumer inserts it once, whatever batch carries it).
 */
export class ClickFallbackStore {
  private readonly logger = new Logger('ClickFallback');
  private readonly dir: string;
  private readonly instance = randomUUID().slice(0, 8);
  private file: { handle: FileHandle; name: string } | null = null;
  private writes: Promise<void> = Promise.resolve();
  private fileSeq = 0;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  async init(): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
  }

  /** Appends a batch durably (write + fdatasync). Writes are serialized. */
  append(jobs: ClickCapturedJob[]): Promise<void> {
    const data = jobs.map((j) => JSON.stringify(j)).join('\n') + '\n';
    const write = this.writes.then(async () => {
      if (!this.file) {
        const name = `clicks-${Date.now()}-${this.instance}-${this.fileSeq++}${SUFFIX}`;
        this.file = { handle: await fs.open(join(this.dir, name), 'a'), name };
      }
      await this.file.handle.appendFile(data);
      await this.file.handle.datasync();
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Closes the open file (it becomes replayable); the next append opens a new one. */
  async rotate(): Promise<void> {
    const done = this.writes.then(async () => {
      const file = this.file;
      this.file = null;
      await file?.handle.close();
    });
    this.writes = done.catch(() => undefined);
    await done;
  }

  /**
   * Replays every closed file of the folder through `send` (chunks of at most `chunk`).
   * Returns how many clicks were sent. A failing send leaves the file claimed for the next pass.
   */
  async replay(send: (jobs: ClickCapturedJob[]) => Promise<void>, chunk = 500): Promise<number> {
    await this.rotate();
    let sent = 0;
    for (const name of await this.claimable()) {
      const claimed = await this.claim(name);
      if (!claimed) continue;
      const jobs = parseLines(await fs.readFile(claimed, 'utf8'));
      for (let i = 0; i < jobs.length; i += chunk) await send(jobs.slice(i, i + chunk));
      await fs.unlink(claimed);
      sent += jobs.length;
      this.logger.log({ file: name, clicks: jobs.length }, 'replayed clicks from the fallback');
    }
    return sent;
  }

  /** Clicks waiting in closed or open files (for tests and metrics). */
  async pendingFiles(): Promise<string[]> {
    return (await fs.readdir(this.dir)).filter((n) => n.endsWith(SUFFIX) || n.endsWith('.replaying'));
  }

  async close(): Promise<void> {
    await this.rotate();
  }

  /**
   * Files to replay. Listed inside the write chain, minus the file appends go to: a file
   * being written is never claimed (its later writes would land in a deleted file).
   */
  private async claimable(): Promise<string[]> {
    const listing = this.writes.then(async () => {
      const open = this.file?.name;
      return (await fs.readdir(this.dir)).filter((n) => n !== open);
    });
    this.writes = listing.then(() => undefined, () => undefined);
    const names = await listing;
    const out: string[] = [];
    for (const name of names.sort()) {
      if (name.endsWith(SUFFIX)) {
        out.push(name);
      } else if (name.endsWith('.replaying')) {
        if (name.endsWith(`.${this.instance}.replaying`)) {
          out.push(name);
          continue;
        }
        const stat = await fs.stat(join(this.dir, name)).catch(() => null);
        if (stat && Date.now() - stat.mtimeMs > STALE_CLAIM_MS) out.push(name);
      }
    }
    return out;
  }

  /** Renames the file to a name only this instance replays; null when another instance took it. */
  private async claim(name: string): Promise<string | null> {
    const mine = `.${this.instance}.replaying`;
    if (name.endsWith(mine)) return join(this.dir, name);
    const base = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : name.replace(/\.[^.]+\.replaying$/, '');
    const target = join(this.dir, `${base}${mine}`);
    try {
      await fs.rename(join(this.dir, name), target);
      return target;
    } catch {
      return null;
    }
  }
}

/** One job per line; a torn last line (crash mid-write, never fsync'd) is skipped. */
function parseLines(text: string): ClickCapturedJob[] {
  const out: ClickCapturedJob[] = [];
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const job = JSON.parse(line) as ClickCapturedJob;
      if (job && typeof job.id === 'string') out.push(job);
    } catch {
      // torn line
    }
  }
  return out;
}
