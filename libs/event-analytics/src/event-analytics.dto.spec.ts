import { parse } from 'csv-parse/sync';
import { boundedInt, CSV_HEADER, toCsvLine } from './event-analytics.dto';
import { dayWindow } from './event-analytics.service';

describe(dayWindow.name, () => {
  it('covers `days` UTC days ending today', () => {
    expect(dayWindow(1, new Date('2026-03-01T00:10:00Z'))).toEqual({ sinceDay: '2026-03-01', today: '2026-03-01' });
    expect(dayWindow(30, new Date('2026-03-01T23:59:00Z'))).toEqual({ sinceDay: '2026-01-31', today: '2026-03-01' });
    expect(dayWindow(365, new Date('2026-12-31T12:00:00Z'))).toEqual({ sinceDay: '2026-01-01', today: '2026-12-31' });
  });
});

describe(boundedInt.name, () => {
  it('defaults, accepts the bounds and names the field in the message', () => {
    expect(boundedInt('limit', undefined, 50, 1, 100)).toBe(50);
    expect(boundedInt('limit', 100, 50, 1, 100)).toBe(100);
    expect(() => boundedInt('limit', 101, 50, 1, 100)).toThrow('Limit must be between 1 and 100');
    expect(() => boundedInt('page', Number.NaN, 1, 1, 10)).toThrow('Page must be between 1 and 10');
    expect(() => boundedInt('offset', -1, 0, 0, Number.MAX_SAFE_INTEGER)).toThrow('Offset must be at least 0');
  });
});

describe(toCsvLine.name, () => {
  it('quotes eventData as a JSON string and escapes what needs it', () => {
    const line = toCsvLine({
      id: 'i',
      eventName: 'a,b',
      eventData: { note: 'say "hi"\nbye' },
      eventTimestamp: '2026-01-01T00:00:00.000Z',
      installId: 'x',
      linkId: 'l',
      linkShortCode: 'abc',
      linkTitle: 'T "1"',
    });
    const [row] = parse(`${CSV_HEADER}\n${line}\n`, { columns: true }) as Array<Record<string, string>>;
    expect(row).toEqual({
      id: 'i',
      eventName: 'a,b',
      eventData: '{"note":"say \\"hi\\"\\nbye"}',
      eventTimestamp: '2026-01-01T00:00:00.000Z',
      installId: 'x',
      linkId: 'l',
      linkShortCode: 'abc',
      linkTitle: 'T "1"',
    });
    expect(JSON.parse(row.eventData)).toEqual({ note: 'say "hi"\nbye' });
    expect(toCsvLine({ id: 'i', eventName: 'n', eventData: {}, eventTimestamp: 't', installId: 'x', linkId: 'l', linkShortCode: 's', linkTitle: '' })).toBe('i,n,"{}",t,x,l,s,');
  });
});

describe('event export CSV (decisions §14: formula escaping)', () => {
  it('prefixes a quote to cells a spreadsheet would run', () => {
    const line = toCsvLine({
      id: 'e1',
      eventName: '=HYPERLINK("http://evil","x")',
      eventData: { a: 1 },
      eventTimestamp: '2026-11-25T00:00:00.000Z',
      installId: 'i1',
      linkId: 'l1',
      linkShortCode: '@abc',
      linkTitle: '-1+2',
    });
    expect(line).toBe(`e1,"'=HYPERLINK(""http://evil"",""x"")","{""a"":1}",2026-11-25T00:00:00.000Z,i1,l1,'@abc,'-1+2`);
  });
});
