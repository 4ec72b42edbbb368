export interface BatcherOptions<T, R> {
  /**
   * Writes one batch. Returns one result per item, in order, when callers of `add` await
   * a result (group commit); otherwise nothing. A rejection fails the batch (see `retryDelayMs`).
   */
  write: (items: T[]) => Promise<R[] | void>;
  /** A batch leaves as soon as it holds this much (default: no bound) and never holds more, unless one item alone is bigger. */
  maxSize?: number;
  /** The size of an item (default 1: `maxSize` counts items; e.g. bytes or records for a bigger bound). */
  sizeOf?: (item: T) => number;
  /**
   * A batch leaves at the latest this long after its first item. Without it the batcher is a
   * group commit: a batch leaves as soon as a write slot is free, so batches grow with the
   * writer's latency.
   */
  maxWaitMs?: number;
  /** Batches being written at the same time (default 1). Items wait for a slot: the back-pressure. */
  maxConcurrent?: number;
  /**
   * For callers that never wait (fire and forget) and must not lose an item: a failed batch goes
   * back, in order, to the front of the queue and is retried after this delay. Without it the
   * callers waiting on a failed batch's items are rejected with the write's error.
   */
  retryDelayMs?: number;
  /** The error `add` rejects with (and `push` throws) after `close()`. */
  closedError?: () => Error;
}

interface Waiter<R> {
  resolve: (result: R) => void;
  reject: (err: unknown) => void;
}

/**
 * The one batcher: collects items from many callers into batches bounded by size,
 * time and concurrency, so many callers share one round trip. `add` resolves with the item's
 * result once its batch is written (a job completes only once its row is committed); `push`
 * hands an item over without waiting (the redirect's clicks). `flush` sends what is waiting,
 * `close` refuses new items and drains: call it on shutdown.
 */
export class Batcher<T, R = void> {
  private items: T[] = [];
  private waiters: Array<Waiter<R> | undefined> = [];
  /** Sizes of the waiting items (only with `sizeOf`). */
  private sizes: number[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing = 0;
  private closed = false;
  /** Failed writes so far (retry mode): `flush` stops waiting once one fails. */
  private failures = 0;
  private writeEnded: Array<() => void> = [];
  private readonly maxSize: number;
  private readonly maxConcurrent: number;

  constructor(private readonly options: BatcherOptions<T, R>) {
    this.maxSize = options.maxSize ?? Infinity;
    this.maxConcurrent = options.maxConcurrent ?? 1;
  }

  /** Items waiting for a batch (not counting those being written). */
  get waiting(): number {
    return this.items.length;
  }

  /** Adds an item; settles with its result once its batch is written (rejects if the write failed). */
  add(item: T): Promise<R> {
    if (this.closed) return Promise.reject(this.closedError());
    return new Promise<R>((resolve, reject) => this.enqueue(item, { resolve, reject }));
  }

  /**
   * Adds items as one caller: settles once the batches holding all of them are written (the items
   * may span several), and rejects with the first failed write's error only after every item
   * settled. One promise for all the items: a promise and closures per item would be held until
   * the commit of a large job's every item.
   */
  addAll(items: readonly T[]): Promise<void> {
    if (this.closed) return Promise.reject(this.closedError());
    if (!items.length) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      let remaining = items.length;
      let failure: { err: unknown } | undefined;
      const settled = () => {
        if (--remaining) return;
        if (failure) reject(failure.err);
        else resolve();
      };
      const waiter: Waiter<R> = {
        resolve: settled,
        reject: (err) => {
          failure ??= { err };
          settled();
        },
      };
      for (const item of items) this.enqueue(item, waiter);
    });
  }

  /** Hands an item over without waiting for it (never rejects; see `retryDelayMs`). */
  push(item: T): void {
    if (this.closed) throw this.closedError();
    this.enqueue(item, undefined);
  }

  /**
   * Sends everything waiting and resolves once nothing is waiting or being written. In retry
   * mode it stops early when a write fails: the items stay queued and are retried later.
   */
  async flush(): Promise<void> {
    const failures = this.failures;
    this.clearTimer();
    while (this.items.length || this.writing) {
      if (this.failures !== failures) return;
      while (this.items.length && this.writing < this.maxConcurrent) this.startBatch();
      await new Promise<void>((resolve) => this.writeEnded.push(resolve));
    }
  }

  /** Refuses new items, then flushes what is waiting. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private closedError(): Error {
    return this.options.closedError?.() ?? new Error('Batcher is closed');
  }

  private enqueue(item: T, waiter: Waiter<R> | undefined): void {
    this.items.push(item);
    this.waiters.push(waiter);
    if (this.options.sizeOf) {
      const size = this.options.sizeOf(item);
      this.sizes.push(size);
      this.size += size;
    } else {
      this.size++;
    }
    if (this.size >= this.maxSize || this.options.maxWaitMs === undefined) {
      if (this.writing < this.maxConcurrent) this.startBatch();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.onTimer(), this.options.maxWaitMs);
    }
  }

  private onTimer(): void {
    this.timer = undefined;
    // At the concurrency bound the batch leaves when a write ends (it finds no timer running).
    if (this.writing < this.maxConcurrent && this.items.length) this.startBatch();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Takes the next batch off the front (at most `maxSize`, at least one item) and writes it. */
  private startBatch(): void {
    this.clearTimer();
    let count: number;
    let size: number;
    if (this.options.sizeOf) {
      count = 0;
      size = 0;
      while (count < this.sizes.length && (count === 0 || size < this.maxSize)) size += this.sizes[count++];
      this.sizes.splice(0, count);
    } else {
      count = Math.min(this.items.length, this.maxSize);
      size = count;
    }
    this.size -= size;
    const batch = this.items.splice(0, count);
    const waiters = this.waiters.splice(0, count);
    this.writing++;
    let written: Promise<R[] | void>;
    try {
      written = this.options.write(batch);
    } catch (err) {
      written = Promise.reject(err);
    }
    written.then(
      (results) => {
        for (let i = 0; i < waiters.length; i++) waiters[i]?.resolve((results ? results[i] : undefined) as R);
        this.writeEnd(true);
      },
      (err: unknown) => {
        if (this.options.retryDelayMs === undefined) {
          for (const w of waiters) w?.reject(err);
          this.writeEnd(true);
          return;
        }
        this.failures++;
        this.requeue(batch, waiters, size);
        this.clearTimer();
        this.timer = setTimeout(() => this.onTimer(), this.options.retryDelayMs);
        this.writeEnd(false);
      },
    );
  }

  private requeue(batch: T[], waiters: Array<Waiter<R> | undefined>, size: number): void {
    this.items.unshift(...batch);
    this.waiters.unshift(...waiters);
    if (this.options.sizeOf) this.sizes.unshift(...batch.map(this.options.sizeOf));
    this.size += size;
  }

  private writeEnd(succeeded: boolean): void {
    this.writing--;
    // What waited during the write leaves now if it fills a batch, if its time is up (no timer
    // running), or at once in group-commit mode; a failed write waits for its retry timer.
    if (succeeded && this.items.length && (this.size >= this.maxSize || !this.timer || this.options.maxWaitMs === undefined)) {
      this.startBatch();
    }
    for (const wake of this.writeEnded.splice(0)) wake();
  }
}
