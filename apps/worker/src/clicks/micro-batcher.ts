import { HandBackError } from '../resilience/job-guard';

interface Pending<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface MicroBatcherOptions {
  /** Flush as soon as this many items wait. */
  maxSize: number;
  /** Flush at the latest this long after the first item of a batch arrived. */
  maxWaitMs: number;
  /** Batches flushing at the same time (one in the database while the next is enriched). */
  maxConcurrentFlushes: number;
}

/**
 * Collects items from many concurrent callers into batches: `add(item)` resolves
 * once the batch holding the item was flushed (rejects if the flush failed), so a
 * BullMQ job completes only after its click is committed.
 */
export class MicroBatcher<T> {
  private pending: Array<Pending<T>> = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing = 0;
  private closed = false;

  constructor(
    private readonly flushFn: (items: T[]) => Promise<void>,
    private readonly options: MicroBatcherOptions,
  ) {}

  add(item: T): Promise<void> {
    // Only after the workers closed (shutdown): the job is handed back, its attempt not spent.
    if (this.closed) return Promise.reject(new HandBackError('Batcher is closed'));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Flushes what is waiting and refuses new items. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.pending.length || this.flushing) {
      if (this.pending.length && this.flushing < this.options.maxConcurrentFlushes) this.flush();
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private schedule(): void {
    if (this.pending.length >= this.options.maxSize) {
      if (this.flushing < this.options.maxConcurrentFlushes) this.flush();
      return;
    }
    if (this.pending.length && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.flushing < this.options.maxConcurrentFlushes) this.flush();
        // else: the running flush reschedules when it ends.
      }, this.options.maxWaitMs);
    }
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.pending.splice(0, this.options.maxSize);
    if (!batch.length) return;
    this.flushing++;
    this.flushFn(batch.map((p) => p.item))
      .then(
        () => batch.forEach((p) => p.resolve()),
        (err) => batch.forEach((p) => p.reject(err)),
      )
      .finally(() => {
        this.flushing--;
        if (this.pending.length >= this.options.maxSize) this.flush();
        else if (this.pending.length && !this.timer) {
          // Items that waited during the flush: flush them now rather than wait again.
          this.flush();
        }
      });
  }
}
