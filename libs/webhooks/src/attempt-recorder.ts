import { Injectable } from '@nestjs/common';
import { AttemptOutcome, AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

const MAX_BATCH = 500;

/**
 * Group commit of the attempt log: attempts finishing while a write is in progress go together
 * in the next one (one round trip for the whole batch). Each caller awaits its own batch, so a
 * job only completes once its attempt is stored.
 */
@Injectable()
export class AttemptRecorder {
  private pending: Array<{ record: AttemptRecord; resolve: (o: AttemptOutcome) => void; reject: (e: unknown) => void }> = [];
  private writing = false;

  constructor(private readonly repo: WebhookDeliveriesRepository) {}

  record(record: AttemptRecord): Promise<AttemptOutcome> {
    return new Promise((resolve, reject) => {
      this.pending.push({ record, resolve, reject });
      if (!this.writing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    try {
      while (this.pending.length) {
        const batch = this.pending.splice(0, MAX_BATCH);
        try {
          const changed = await this.repo.recordAttempts(batch.map((b) => b.record));
          for (const b of batch) b.resolve(changed.get(b.record.webhookId) ?? { webhookActive: true, disabledReason: null });
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.writing = false;
    }
  }
}
