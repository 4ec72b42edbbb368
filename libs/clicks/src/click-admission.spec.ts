import { randomUUID } from 'node:crypto';
import { admitClick, admitClickBatch, ClicksInFlight, MalformedClickError } from './click-admission';
import { packClickBatch } from '@dl/platform/click-codec';

const click = () => ({
  id: randomUUID(),
  linkId: randomUUID(),
  organizationId: randomUUID(),
  clickedAt: new Date().toISOString(),
  ip: '1.2.3.4',
  userAgent: 'ua',
  referrer: null,
  acceptLanguage: null,
  query: {},
});

describe('click admission', () => {
  it('admits a valid click and refuses a malformed one for good', () => {
    const c = click();
    expect(admitClick(c)).toBe(c);
    expect(() => admitClick({ ...c, id: 'nope' })).toThrow(MalformedClickError);
  });

  it('keeps the valid clicks of a batch and reports each malformed one', () => {
    const good = [click(), click()];
    const dropped: Array<[number, string]> = [];
    const valid = admitClickBatch({ clicks: [good[0], { ...click(), linkId: 7 }, good[1]] }, (i, reason) => dropped.push([i, reason]));
    expect(valid).toEqual(good);
    expect(dropped).toEqual([[1, 'linkId is not a UUID']]);
    expect(() => admitClickBatch({ clicks: 'x' }, () => undefined)).toThrow('clicks is not an array');
  });

  it('reads the packed form the edge sends: the same clicks, and a click with a forged index is dropped alone', () => {
    const good = [click(), click(), click()];
    const packed = JSON.parse(JSON.stringify(packClickBatch(good)));
    // The edge leaves null facts out; the consumer reads a missing fact as null.
    expect(admitClickBatch(packed, () => undefined)).toEqual(good.map(({ referrer: _r, acceptLanguage: _a, ...c }) => c));
    packed.r[9] = 999;
    const dropped: Array<[number, string]> = [];
    expect(admitClickBatch(packed, (i, reason) => dropped.push([i, reason])).map((c) => c.id)).toEqual([good[0].id, good[2].id]);
    expect(dropped).toEqual([[1, 'linkId is not a UUID']]);
    expect(() => admitClickBatch({ v: 2, s: [], i: ['x'], r: [] }, () => undefined)).toThrow(MalformedClickError);
  });

  it('holds at most the limit in clicks (one oversized job alone) and sizes the jobs to hold by clicks per job', async () => {
    const limit = new ClicksInFlight(1000, 256);
    let peak = 0;
    const work = (n: number) =>
      limit.admitted(n, async () => {
        peak = Math.max(peak, limit.clicks);
        await new Promise((r) => setTimeout(r, 2));
      });
    await Promise.all([...Array.from({ length: 20 }, () => work(300)), work(5000)]);
    expect(peak).toBe(5000);
    expect(limit.clicks).toBe(0);
    await Promise.all(Array.from({ length: 40 }, () => work(400)));
    expect(peak).toBe(5000);
    // ~400 clicks per job: 1.25 × 1000 / 400 → 4 jobs, not 256.
    expect(limit.jobsToHold()).toBeLessThanOrEqual(5);
    const small = new ClicksInFlight(1000, 256);
    await Promise.all(Array.from({ length: 10 }, () => small.admitted(1, async () => undefined)));
    expect(small.jobsToHold()).toBe(256);
  });
});
