import { randomUUID } from 'node:crypto';
import { AMBIGUITY_TIE_WINDOW_MS, pickFingerprintMatch } from './attribution.service';
import { CandidateClick } from './attribution.repository';

const at = Date.parse('2026-11-20T12:00:00Z');
const click = (linkId: string, msAgo: number): CandidateClick => ({
  clickId: randomUUID(),
  linkId,
  clickedAt: new Date(at - msAgo),
  shortCode: 'abc',
  deepLinkPath: null,
  deepLinkParameters: null,
});

describe(pickFingerprintMatch.name, () => {
  it('answers nothing without candidates', () => {
    expect(pickFingerprintMatch([])).toBeNull();
  });

  it('takes the most recent click (candidates come newest first)', () => {
    const newest = click('a', 0);
    expect(pickFingerprintMatch([newest, click('b', AMBIGUITY_TIE_WINDOW_MS + 1)])).toEqual({ click: newest, ambiguous: false });
  });

  it('flags another link clicked within the tie window', () => {
    const newest = click('a', 0);
    expect(pickFingerprintMatch([newest, click('b', AMBIGUITY_TIE_WINDOW_MS)])).toEqual({ click: newest, ambiguous: true });
    expect(pickFingerprintMatch([newest, click('b', 0)])?.ambiguous).toBe(true);
  });

  it('does not flag repeated clicks of the same link', () => {
    expect(pickFingerprintMatch([click('a', 0), click('a', 1000), click('a', 2000)])?.ambiguous).toBe(false);
  });
});
