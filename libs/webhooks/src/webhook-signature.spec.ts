import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, secretKey, signWebhook } from './webhook-signature';

describe('signWebhook', () => {
  it('generates whsec_ + base64 of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKey(secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('produces exactly what the standardwebhooks package signs, and it verifies', () => {
    const secret = generateWebhookSecret();
    const body = JSON.stringify({ event: 'link.clicked', link: { id: 'x', shortCode: 'é✓' } });
    const ts = Math.floor(Date.now() / 1000);
    const headers = signWebhook(secretKey(secret), 'evt_1', ts, body);
    const wh = new Webhook(secret);
    expect(headers['webhook-signature']).toBe(wh.sign('evt_1', new Date(ts * 1000), body));
    expect(headers['webhook-timestamp']).toBe(String(ts));
    expect(wh.verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('does not verify with another secret', () => {
    const body = '{"a":1}';
    const headers = signWebhook(secretKey(generateWebhookSecret()), 'evt_2', Math.floor(Date.now() / 1000), body);
    expect(() => new Webhook(generateWebhookSecret()).verify(body, { ...headers })).toThrow('No matching signature found');
  });
});
