import { Injectable } from '@nestjs/common';
import { Batcher } from '@dl/platform/batch';
import { bisectWrite, stripUnstorableOrNull } from '@dl/platform/db';
import { DeadLetters } from '@dl/platform/queue';
import { AttemptOutcome, AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** Error and excerpt come from a receiver (or its network): made storable before they are logged. */
function storable(record: AttemptRecord): AttemptRecord {
  const { error, responseExcerpt } = record.result;
  return { ...record, result: { ...record.result, error: stripUnstorableOrNull(error), responseExcerpt: stripUnstorableOrNull(responseExcerpt) } };
}

/**
 * The attempt log, written with group commit. A group mixes tenants: an attempt the database
 * refuses is isolated by splitting the group, dead-lettered and dropped (its delivery keeps its
 * job's own retry schedule); every other attempt is logged once (decisions §14).
 */
@Injectable()
export class AttemptRecorder {
  private readonly commit: Batcher<AttemptRecord, AttemptOutcome>;

  constructor(repo: WebhookDeliveriesRepository, deadLetters: DeadLetters) {
    // Group commit (no wait): attempts arriving during a write share the next one, 500 at most.
    this.commit = new Batcher({
      maxSize: 500,
      write: async (records) => {
        const changed = new Map<string, AttemptOutcome>();
        const parts = await bisectWrite(records.map(storable), (part) => repo.recordAttempts(part), {
          poisoned: (record, err) => deadLetters.record('webhook-attempts', record, err),
        });
        for (const part of parts) for (const [id, outcome] of part) changed.set(id, outcome);
        return records.map((r) => changed.get(r.webhookId) ?? { webhookActive: true, disabledReason: null });
      },
    });
  }

  record(record: AttemptRecord): Promise<AttemptOutcome> {
    return this.commit.add(record);
  }
}
