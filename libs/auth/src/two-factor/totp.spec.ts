import {
  acceptTotp,
  hashChallengeToken,
  hashRecoveryCode,
  newChallengeToken,
  newRecoveryCodes,
  newTotpSecret,
  normalizeRecoveryCode,
  otpauthUrl,
  totpCode,
  totpStep,
} from './totp';

describe('TOTP rules', () => {
  const secret = newTotpSecret();
  const now = Date.UTC(2026, 10, 29, 12, 0, 15);
  const step = totpStep(now);

  it('makes a 160-bit base32 secret and an otpauth URI naming the issuer and the account', () => {
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl(secret, 'ada@example.test'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Deeplink:ada@example.test');
    expect(Object.fromEntries(url.searchParams)).toEqual({ issuer: 'Deeplink', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('accepts the code of this step and of one step either side, answering its step', () => {
    expect(acceptTotp(secret, totpCode(secret, now), now, null)).toBe(step);
    expect(acceptTotp(secret, totpCode(secret, now - 30_000), now, null)).toBe(step - 1);
    expect(acceptTotp(secret, totpCode(secret, now + 30_000), now, null)).toBe(step + 1);
  });

  it('refuses a code from two steps ago, or two ahead', () => {
    const old = totpCode(secret, now - 60_000);
    const ahead = totpCode(secret, now + 60_000);
    // A collision with a code of the window would make the test meaningless.
    const window = [-30_000, 0, 30_000].map((d) => totpCode(secret, now + d));
    if (!window.includes(old)) expect(acceptTotp(secret, old, now, null)).toBeNull();
    if (!window.includes(ahead)) expect(acceptTotp(secret, ahead, now, null)).toBeNull();
    expect(window.includes(old) && window.includes(ahead)).toBe(false);
  });

  it('refuses a code of a step already accepted or earlier (replay), accepts a later one', () => {
    const code = totpCode(secret, now);
    expect(acceptTotp(secret, code, now, step)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, now - 30_000), now, step)).toBeNull();
    expect(acceptTotp(secret, totpCode(secret, now + 30_000), now, step)).toBe(step + 1);
  });

  it('refuses malformed codes and another secret\'s code', () => {
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 123456', '12 345']) expect(acceptTotp(secret, bad, now, null)).toBeNull();
    const other = newTotpSecret();
    const theirs = totpCode(other, now);
    if (![-30_000, 0, 30_000].some((d) => totpCode(secret, now + d) === theirs)) expect(acceptTotp(secret, theirs, now, null)).toBeNull();
  });

  it('makes ten distinct recovery codes of two groups of five hex', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[0-9a-f]{5}-[0-9a-f]{5}$/);
  });

  it('compares recovery codes without case, spaces or the dash; refuses anything else', () => {
    expect(normalizeRecoveryCode(' 3F9A1-C07BE ')).toBe('3f9a1-c07be');
    expect(normalizeRecoveryCode('3f9a1c07be')).toBe('3f9a1-c07be');
    expect(normalizeRecoveryCode('3f9a1 c07be')).toBe('3f9a1-c07be');
    for (const bad of ['', '3f9a1-c07b', '3f9a1-c07bez', 'gggggggggg', '3f9a1--c07be']) expect(normalizeRecoveryCode(bad)).toBeNull();
    expect(hashRecoveryCode('3f9a1-c07be')).toMatch(/^[0-9a-f]{64}$/);
    expect(hashRecoveryCode('3f9a1-c07be')).not.toBe(hashRecoveryCode('3f9a1-c07bf'));
  });

  it('makes dlc_ challenge tokens; only well-formed ones have a hash', () => {
    const token = newChallengeToken();
    expect(token).toMatch(/^dlc_[0-9a-f]{48}$/);
    expect(hashChallengeToken(token)).toMatch(/^[0-9a-f]{64}$/);
    for (const bad of ['', 'dlc_', `dlc_${'0'.repeat(47)}`, `dlv_${'0'.repeat(48)}`, `${token}0`]) expect(hashChallengeToken(bad)).toBeNull();
  });
});
