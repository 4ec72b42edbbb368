import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { JobQueue, Queues, SdkEventRecord } from '@dl/platform/queue';
import { IngestUnavailableError } from './sdk.errors';

/** Flush when this many events wait, or after this long. */
export const EVENT_BATCH_MAX = 500;
export const EVENT_BATCH_DELAY_MS = 5;

/**
 * Micro-batches accepted events into one `sdk.event` job per few milliseconds. Each caller's
 * promise settles when its batch is in the queue, so a 202 means "durably queued". A request's
 * events are never split across jobs; batches are queued concurrently.
 */
@Injectable()
export class EventBuffer implements OnModuleDestroy {
  private readonly logger = new Logger(EventBuffer.name);
  private readonly batcher: Batcher<SdkEventRecord[]>;

  constructor(private readonly queue: JobQueue) {
    this.batcher = new Batcher({
      maxSize: EVENT_BATCH_MAX,
      sizeOf: (records) => records.length,
      maxWaitMs: EVENT_BATCH_DELAY_MS,
      maxConcurrent: Infinity,
      write: (requests) => this.enqueue(requests.flat()),
    });
  }

  push(records: SdkEventRecord[]): Promise<void> {
    return this.batcher.add(records);
  }

  private async enqueue(events: SdkEventRecord[]): Promise<void> {
    if (!events.length) return;
    try {
      await this.queue.add(Queues.ingest, 'sdk.event', { events }, { timeoutMs: 2000 });
    } catch (err) {
      this.logger.error({ err: (err as Error).message, events: events.length }, 'events could not be queued');
      throw new IngestUnavailableError();
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.batcher.flush();
  }
}
