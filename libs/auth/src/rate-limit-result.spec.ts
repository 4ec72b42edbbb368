import { rateLimitResult } from './rate-limiter.service';

describe(rateLimitResult.name, () => {
  const now = 1_000_000;
  it('at the limit: retry when the oldest entry leaves the window', () => {
    const r = rateLimitResult(false, 10, 10, now - 45_000, now, 'redis', 60_000, now - 45_000 + 60_000);
    expect(r).toMatchObject({ allowed: false, remaining: 0, retryAfter: 15, reset: Math.ceil((now + 15_000) / 1000) });
  });
  it('over the limit (after a downgrade): retry when enough entries have left, rounded up', () => {
    // Oldest leaves in 15 s, but the admitting entry (count - limit) in 40.2 s.
    const r = rateLimitResult(false, 10, 60, now - 45_000, now, 'redis', 60_000, now + 40_200);
    expect(r.retryAfter).toBe(41);
  });
  it('never less than one second', () => {
    expect(rateLimitResult(false, 1, 1, now - 59_999, now, 'local', 60_000).retryAfter).toBe(1);
  });
});
