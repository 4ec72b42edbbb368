import { renderDeletionScheduledEmail } from './deletion-email';

describe(renderDeletionScheduledEmail.name, () => {
  const mail = renderDeletionScheduledEmail({
    organization: '<b>Evil</b> & "Co"',
    requestedBy: "Ada <img src=x onerror=alert(1)>",
    deletionAt: new Date('2026-12-06T06:00:00Z'),
    settingsUrl: 'https://app.example.test/app/organization',
  });

  it('names the organization and the day in the subject and both parts', () => {
    expect(mail.subject).toBe('<b>Evil</b> & "Co" will be deleted on December 6, 2026');
    expect(mail.text).toContain('On December 6, 2026 every link, click, report, webhook, domain, member and key of it is deleted for good.');
    expect(mail.text).toContain('Restore or export: https://app.example.test/app/organization');
    expect(mail.html).toContain('Deletion scheduled for December 6, 2026');
  });

  it('escapes every name in the HTML and links only to the settings page', () => {
    expect(mail.html).not.toContain('<b>Evil</b>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;b&gt;Evil&lt;/b&gt; &amp; &quot;Co&quot;');
    expect([...mail.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['https://app.example.test/app/organization']);
  });
});
