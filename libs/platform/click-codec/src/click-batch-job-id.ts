import { createHash } from 'node:crypto';
import type { ClickCapturedJob } from './click-job';

/**
 * Job id of a `click.batch`: derived from its click ids, so re-adding the same batch (a
 * replay of the same fallback chunk, a retried add) is a no-op in BullMQ while the first
 * job is still known. Different groupings of the same clicks get other ids: the consumer's
 * per-click `ON CONFLICT (id, clicked_at) DO NOTHING` keeps those exact.
 */
export function clickBatchJobId(clicks: ReadonlyArray<Pick<ClickCapturedJob, 'id'>>): string {
  // One string, one native call per batch. The bytes hashed (each id, then a newline) are fixed: a replayed fallback chunk keeps its job id.
  let text = '';
  for (const c of clicks) text += `${c.id}\n`;
  return `clicks-${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}
