import { deviceFingerprint, normalizeLanguage, osMajor } from './fingerprint';

describe(deviceFingerprint.name, () => {
  const org = '00000000-0000-4000-8000-000000000001';

  it('matches a browser click and an SDK install of the same device', () => {
    const click = deviceFingerprint({ organizationId: org, ip: '203.0.113.9', platform: 'iOS', osVersion: '17.4.1', language: 'en-US,en;q=0.9' });
    const install = deviceFingerprint({ organizationId: org, ip: '203.0.113.9', platform: 'ios', osVersion: '17.4', language: 'en_GB' });
    expect(click).toBe(install);
    expect(click).toMatch(/^[0-9a-f]{32}$/);
  });

  it('differs by organization, IP, platform, OS major and language', () => {
    const base = { organizationId: org, ip: '203.0.113.9', platform: 'iOS', osVersion: '17.4', language: 'en' };
    const fp = deviceFingerprint(base);
    expect(deviceFingerprint({ ...base, organizationId: '00000000-0000-4000-8000-000000000002' })).not.toBe(fp);
    expect(deviceFingerprint({ ...base, ip: '203.0.113.10' })).not.toBe(fp);
    expect(deviceFingerprint({ ...base, platform: 'Android' })).not.toBe(fp);
    expect(deviceFingerprint({ ...base, osVersion: '16.0' })).not.toBe(fp);
    expect(deviceFingerprint({ ...base, language: 'fr' })).not.toBe(fp);
  });

  it('is null without IP or platform', () => {
    expect(deviceFingerprint({ organizationId: org, ip: null, platform: 'iOS', osVersion: '1', language: 'en' })).toBeNull();
    expect(deviceFingerprint({ organizationId: org, ip: '1.2.3.4', platform: '', osVersion: '1', language: 'en' })).toBeNull();
  });

  it('normalizes parts', () => {
    expect(normalizeLanguage('de-CH, de;q=0.9')).toBe('de');
    expect(normalizeLanguage(undefined)).toBe('');
    expect(osMajor('14_2')).toBe('14');
    expect(osMajor('x')).toBe('');
  });
});
