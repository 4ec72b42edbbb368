import { createHash } from 'node:crypto';
import { ClickCapturedJob } from '@dl/platform/queue';

/**
 * Job id of a `click.batch`: derived from its click ids, so re-adding the same batch (a
 * replay of the same fallback chunk, a retried add) is a no-op in BullMQ while the first
 * job is still known. Different groupings of the same clicks get other ids: the consumer's
 * per-click `ON CONFLICT (id, clicked_at) DO NOTHING` keeps those exact.
 */
export function clickBatchJobId(clicks: ReadonlyArray<Pick<ClickCapturedJob, 'id'>>): string {
  const hash = createHash('sha256');
  for (const c of clicks) hash.update(c.id).update('\n');
  return `clicks-${hash.digest('hex').slice(0, 40)}`;
}
