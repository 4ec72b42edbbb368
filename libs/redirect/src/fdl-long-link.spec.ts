import { fdlParamsOf } from '@dl/link-fields';
import { buildAnswer } from './answer';
import { isServableFdl } from './redirect.service';

const params = (query: Record<string, string>) => fdlParamsOf(new URLSearchParams(query));

/** Which Firebase Dynamic Links long links the edge follows (decisions §26). Over HTTP, one refusal: fdl-long-links.e2e.spec.ts. */
describe(isServableFdl.name, () => {
  it('an http(s) link with http(s) fallbacks, or empty ones, is followed', () => {
    expect(isServableFdl(params({ link: 'https://example.com/x', apn: 'com.example.app' }))).toBe(true);
    expect(isServableFdl(params({ link: 'http://example.com/x', afl: 'https://example.com/a', ifl: 'https://example.com/i', ipfl: 'https://example.com/p', ofl: 'https://example.com/o', si: 'https://example.com/card.png' }))).toBe(true);
    expect(isServableFdl(params({ link: 'https://example.com/x', ofl: '' }))).toBe(true);
  });

  it.each(['javascript:alert(1)', 'ftp://example.com/x', 'not a url', '', 'https://'])('a link %j → the 400 page', (link) => {
    expect(isServableFdl(params({ link, apn: 'com.example.app' }))).toBe(false);
  });

  it.each(['afl', 'ifl', 'ipfl', 'ofl', 'si'])('a %s that is not http(s) → the 400 page', (name) => {
    expect(isServableFdl(params({ link: 'https://example.com/x', [name]: 'intent://x' }))).toBe(false);
  });

  it('no link at all is not a long link to follow', () => {
    expect(isServableFdl(params({ apn: 'com.example.app' }))).toBe(false);
  });

  it('the 400 page says the link is not valid', () => {
    const page = buildAnswer({ kind: 'bad-link' });
    expect([page.status, page.headers['content-type']]).toEqual([400, 'text/html; charset=utf-8']);
    expect(page.body).toContain('This link is not valid');
  });
});
