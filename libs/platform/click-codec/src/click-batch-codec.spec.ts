import fc from 'fast-check';
import { PACKED_FIELDS, packClickBatch, unpackClickBatch } from './click-batch-codec';
import { newClickId } from './click-id';
import type { ClickCapturedJob } from './click-job';

/** What the consumer reads: a missing fact and a null one are the same (the edge leaves nulls out). */
function withoutNulls(click: ClickCapturedJob): Record<string, unknown> {
  return Object.fromEntries(Object.entries(click).filter(([, v]) => v !== null && v !== undefined));
}

/** Through Redis: BullMQ stores the payload as JSON. */
const viaJson = <T>(value: T): unknown => JSON.parse(JSON.stringify(value));

const fact = fc.option(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '-1', '0', 'false')), { nil: null });
const clickArb: fc.Arbitrary<ClickCapturedJob> = fc
  .record(
    {
      id: fc.uuid(),
      linkId: fc.constantFrom(...Array.from({ length: 4 }, () => newClickId())),
      organizationId: fc.uuid(),
      clickedAt: fc.integer({ min: 0, max: 4e12 }).map((ms) => new Date(ms).toISOString()),
      ip: fact,
      userAgent: fact,
      referrer: fact,
      acceptLanguage: fact,
      query: fc.dictionary(fc.string(), fc.string({ unit: 'binary' }), { maxKeys: 3 }),
      variantIndex: fc.nat(20),
      ruleIndex: fc.nat(20),
    },
    { requiredKeys: ['id', 'linkId', 'organizationId', 'clickedAt'] },
  )
  .map((c) => c as ClickCapturedJob);

describe('click batch packing', () => {
  it('gives back every click, in order, after a trip through JSON (property)', () => {
    fc.assert(
      fc.property(fc.array(clickArb, { maxLength: 60 }), (clicks) => {
        const unpacked = unpackClickBatch(viaJson(packClickBatch(clicks)));
        expect(unpacked).toEqual(clicks.map(withoutNulls));
      }),
      { numRuns: 300 },
    );
  });

  it('still reads the {clicks: [...]} form of earlier releases as it is', () => {
    const clicks = [{ id: newClickId(), linkId: 'l', organizationId: 'o', clickedAt: 'now', ip: null }];
    expect(unpackClickBatch({ clicks })).toBe(clicks);
  });

  it('writes each distinct string once: a flush from a few links and browsers is under a third of the plain JSON', () => {
    const links = Array.from({ length: 5 }, () => newClickId());
    const org = newClickId();
    const agents = [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    ];
    const t0 = Date.UTC(2026, 10, 25, 12);
    const clicks: ClickCapturedJob[] = Array.from({ length: 500 }, (_, n) => ({
      id: newClickId(t0 + (n % 20)),
      linkId: links[n % 5],
      organizationId: org,
      clickedAt: new Date(t0 + (n % 20)).toISOString(),
      ip: `203.0.113.${n % 250}`,
      userAgent: agents[n % 3],
      acceptLanguage: 'en-US,en;q=0.9',
    }));
    const packed = JSON.stringify(packClickBatch(clicks)).length;
    const plain = JSON.stringify({ clicks }).length;
    expect(packed).toBeLessThan(plain / 3);
  });

  it('never throws on a hostile payload: neither form is null, a bad index becomes a value no click field accepts (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const out = unpackClickBatch(value);
        expect(out === null || Array.isArray(out)).toBe(true);
      }),
      { numRuns: 500 },
    );
    const id = newClickId();
    const row = (linkIndex: number) => [linkIndex, 1, 2, -1, -1, -1, -1, -1, -1];
    expect(unpackClickBatch({ v: 2, s: ['l', 'o', 't'], i: [id], r: row(7) })).toEqual([{ id, linkId: false, organizationId: 'o', clickedAt: 't' }]);
    expect(unpackClickBatch({ v: 2, s: ['l', 'o', 't'], i: [id], r: row(0.5) })).toEqual([{ id, linkId: false, organizationId: 'o', clickedAt: 't' }]);
    expect(unpackClickBatch({ v: 2, s: [], i: [id], r: [] })).toBeNull();
    expect(unpackClickBatch({ v: 3, s: [], i: [], r: [] })).toBeNull();
    expect(unpackClickBatch({ v: 2, s: [], i: [], r: [], q: [] })).toBeNull();
    expect(unpackClickBatch({ clicks: 'x' })).toBeNull();
    expect(PACKED_FIELDS).toBe(row(0).length);
  });
});
