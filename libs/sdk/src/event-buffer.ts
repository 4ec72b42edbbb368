import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { JobQueue, SdkEventRecord } from '@dl/platform/queue';
import { IngestUnavailableError } from './sdk.errors';

/** Flush when this many events wait, or after this long. */
export const EVENT_BATCH_MAX = 500;
export const EVENT_BATCH_DELAY_MS = 5;

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Micro-batches accepted events into one `sdk.event` job per few milliseconds. Each caller's
 * promise settles when its batch is in the queue, so a 202 means "durably queued".
 */
@Injectable()
export class EventBuffer implements OnModuleDestroy {
  private readonly logger = new Logger(EventBuffer.name);
  private events: SdkEventRecord[] = [];
  private waiters: Waiter[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly queue: JobQueue) {}

  push(records: SdkEventRecord[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.events.push(...records);
      this.waiters.push({ resolve, reject });
      if (this.events.length >= EVENT_BATCH_MAX) void this.flush();
      else if (!this.timer) this.timer = setTimeout(() => void this.flush(), EVENT_BATCH_DELAY_MS);
    });
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const events = this.events;
    const waiters = this.waiters;
    this.events = [];
    this.waiters = [];
    if (!events.length) return;
    try {
      await this.queue.add('ingest', 'sdk.event', { events }, { timeoutMs: 2000 });
      for (const w of waiters) w.resolve();
    } catch (err) {
      this.logger.error({ err: (err as Error).message, events: events.length }, 'events could not be queued');
      for (const w of waiters) w.reject(new IngestUnavailableError());
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }
}
