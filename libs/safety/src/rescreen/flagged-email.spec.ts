import { renderFlaggedLinksEmail } from './flagged-email';

describe(renderFlaggedLinksEmail.name, () => {
  const line = (i: number) => ({ shortUrl: `http://sho.rt/c${i}`, reason: 'malware' });

  it('one link: names it and its reason; the organization name is text, never markup', () => {
    const mail = renderFlaggedLinksEmail({ organization: '<b>Acme</b>', links: [line(1)], suspended: false, linksUrl: 'https://dash.example/app/links' });
    expect(mail.subject).toBe('A link of <b>Acme</b> was blocked: malware');
    expect(mail.text).toContain('- http://sho.rt/c1: malware');
    expect(mail.html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Acme</b>');
    expect(mail.html).not.toContain('suspended');
  });

  it('many links: lists 20, counts the rest, and says when the organization was suspended', () => {
    const mail = renderFlaggedLinksEmail({ organization: 'Acme', links: Array.from({ length: 23 }, (_, i) => line(i)), suspended: true, linksUrl: 'https://dash.example/app/links' });
    expect(mail.subject).toBe('23 links of Acme were blocked');
    expect(mail.text.match(/^- /gm)).toHaveLength(20);
    expect(mail.text).toContain('and 3 more.');
    expect(mail.text).toContain('suspended pending review');
    expect(mail.html).toContain('suspended pending review');
  });
});
