import { renderAccountEmail, unlinkable } from './account-email';

describe(renderAccountEmail.name, () => {
  const mail = renderAccountEmail({
    subject: 'Join <Evil>',
    eyebrow: 'Invitation',
    heading: `Join ${unlinkable('pay.example <script>x</script>')}`,
    lines: [`${unlinkable('https://phish.example')} invited you.`],
    action: { label: 'Accept', url: 'https://dash.example/app/accept-invite#token=dli_"><x' },
    code: 'dli_abc',
    footer: 'Ignore it if unexpected.',
  });

  it('escapes every caller-supplied string in the HTML', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.html).toContain('href="https://dash.example/app/accept-invite#token=dli_&quot;&gt;&lt;x"');
    expect(mail.html).toContain('<title>Join &lt;Evil&gt;</title>');
  });

  it('has one link (the action): names that look like domains or URLs are broken for linkifiers', () => {
    expect(mail.html.match(/<a /g)).toHaveLength(1);
    expect(mail.html).not.toContain('pay.example');
    expect(mail.html).not.toContain('https://phish.example');
    expect(unlinkable('pay.example')).toBe('pay.\u200cexample');
  });

  it('keeps the report email frame and a plain-text part with the link and the code', () => {
    expect(mail.html).toContain('max-width:600px');
    expect(mail.html).toContain('background:#4f46e5');
    expect(mail.text).toContain('Accept: https://dash.example/app/accept-invite#token=dli_"><x');
    expect(mail.text).toContain('Code: dli_abc');
    expect(mail.subject).toBe('Join <Evil>');
  });
});
