import { Injectable } from '@nestjs/common';
import { GroupCommit } from './group-commit';
import { AttemptOutcome, AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/** The attempt log, written with group commit. */
@Injectable()
export class AttemptRecorder {
  private readonly commit: GroupCommit<AttemptRecord, AttemptOutcome>;

  constructor(repo: WebhookDeliveriesRepository) {
    this.commit = new GroupCommit(async (records) => {
      const changed = await repo.recordAttempts(records);
      return records.map((r) => changed.get(r.webhookId) ?? { webhookActive: true, disabledReason: null });
    });
  }

  record(record: AttemptRecord): Promise<AttemptOutcome> {
    return this.commit.add(record);
  }
}
