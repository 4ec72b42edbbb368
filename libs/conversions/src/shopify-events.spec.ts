import { createHmac } from 'node:crypto';
import { isShopifySignature, orderClickId, parseShopifyJson } from './shopify-events.service';

describe('Shopify payloads', () => {
  it('keeps ids past 2^53 exact', () => {
    expect(parseShopifyJson('{"id": 820982911946154508, "order_id":820982911946154509, "n": [12345678901234567], "small": 42}')).toEqual({
      id: '820982911946154508',
      order_id: '820982911946154509',
      n: ['12345678901234567'],
      small: 42,
    });
    // A digit run inside a string that would break the JSON: the plain parse.
    expect(parseShopifyJson('{"note": "a:12345678901234567}"}')).toEqual({ note: 'a:12345678901234567}' });
  });

  it('finds dl_click in the landing site (path or URL) or a note attribute', () => {
    const id = '0190a0a0-0000-7000-8000-000000000001';
    expect(orderClickId({ landing_site: `/products/mug?dl_click=${id}` })).toBe(id);
    expect(orderClickId({ landing_site: `https://shop.example.com/?a=1&dl_click=${id}` })).toBe(id);
    expect(orderClickId({ landing_site: '/', note_attributes: [{ name: 'dl_click', value: id }] })).toBe(id);
    expect(orderClickId({ landing_site: '/?dl_click=nope' })).toBeNull();
    expect(orderClickId({})).toBeNull();
  });

  it('accepts only the base64 HMAC-SHA256 of the exact body with the secret', () => {
    const body = Buffer.from('{"id":1,"total_price":"49.90"}');
    const good = createHmac('sha256', 'shpss_secret').update(body).digest('base64');
    expect(isShopifySignature(body, good, 'shpss_secret')).toBe(true);
    expect(isShopifySignature(Buffer.from(`${body} `), good, 'shpss_secret')).toBe(false); // another body
    expect(isShopifySignature(body, good, 'other_secret')).toBe(false);
    expect(isShopifySignature(body, createHmac('sha256', 'shpss_secret').update(body).digest('hex'), 'shpss_secret')).toBe(false); // hex, not base64
    for (const signature of [undefined, '', 'x', good.slice(0, -4)]) expect(isShopifySignature(body, signature, 'shpss_secret')).toBe(false); // missing or of another length
  });
});
