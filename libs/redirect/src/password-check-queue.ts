/**
 * A bounded queue in front of the password hash (scrypt) at the edge (decisions §22): at most
 * `concurrency` checks run at once on libuv's pool, at most `capacity` more wait; past that a
 * check is refused at once (the 429 page). So a flood of wrong passwords costs the process a
 * fixed share of its thread pool and memory, never all of it, and redirects of other links
 * (which use no pool thread) keep their latency.
 */
export class PasswordCheckQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency: number,
    private readonly capacity: number,
  ) {}

  /** Checks in progress and waiting (for metrics and tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `check` when a slot is free; null (without running it) when the queue is full. */
  async run<T>(check: () => Promise<T>): Promise<T | null> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.capacity) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await check();
    } finally {
      const next = this.waiting.shift();
      // The slot passes to the next waiter as is (running stays the same), or is freed.
      if (next) next();
      else this.running--;
    }
  }
}
