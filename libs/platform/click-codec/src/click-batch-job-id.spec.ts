import { createHash } from 'node:crypto';
import { clickBatchJobId } from './click-batch-job-id';

describe(clickBatchJobId.name, () => {
  const a = { id: '0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0001' };
  const b = { id: '0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0002' };

  it('is the same for the same clicks (a re-sent batch is a no-op in BullMQ)', () => {
    expect(clickBatchJobId([a, b])).toBe(clickBatchJobId([{ ...a }, { ...b }]));
    expect(clickBatchJobId([a, b])).toMatch(/^clicks-[0-9a-f]{40}$/);
  });

  it('hashes each id followed by a newline (ids of fallback chunks written by earlier versions keep their job id)', () => {
    expect(clickBatchJobId([a, b])).toBe(`clicks-${createHash('sha256').update(`${a.id}\n${b.id}\n`).digest('hex').slice(0, 40)}`);
  });

  it('differs for another grouping or order of clicks', () => {
    const ids = new Set([clickBatchJobId([a, b]), clickBatchJobId([b, a]), clickBatchJobId([a]), clickBatchJobId([b])]);
    expect(ids.size).toBe(4);
  });
});
