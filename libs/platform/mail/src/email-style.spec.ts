import { emailDay, escapeHtml } from './email-style';

describe('email style', () => {
  it('escapes the five characters that can break out of HTML text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('writes dates in UTC, month spelled out', () => {
    expect(emailDay(new Date('2027-03-04T23:30:00Z'))).toBe('March 4, 2027');
  });
});
