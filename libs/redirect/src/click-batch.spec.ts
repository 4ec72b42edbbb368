import { clickBatchJobId } from './click-batch';

describe('clickBatchJobId', () => {
  const a = { id: '0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0001' };
  const b = { id: '0b9c6a57-1f0e-4a43-9d57-6f1f4a9c0002' };

  it('is the same for the same clicks (a re-sent batch is a no-op in BullMQ)', () => {
    expect(clickBatchJobId([a, b])).toBe(clickBatchJobId([{ ...a }, { ...b }]));
    expect(clickBatchJobId([a, b])).toMatch(/^clicks-[0-9a-f]{40}$/);
  });

  it('differs for another grouping or order of clicks', () => {
    const ids = new Set([clickBatchJobId([a, b]), clickBatchJobId([b, a]), clickBatchJobId([a]), clickBatchJobId([b])]);
    expect(ids.size).toBe(4);
  });
});
