import { webhookUrlProblem } from './webhooks.dto';
import { webhookBody } from './webhook-events';

describe('webhookUrlProblem', () => {
  it.each([
    ['https://example.com/hook', null],
    ['http://10.0.0.1:8080/x?y=1', null],
    ['not a url', 'Must be a valid URL'],
    ['', 'Must be a valid URL'],
    [42, 'Must be a valid URL'],
    ['ftp://example.com', 'Must be an http or https URL'],
    ['file:///etc/passwd', 'Must be an http or https URL'],
    ['https://u:p@example.com', 'Must not contain credentials'],
    ['https://:p@example.com', 'Must not contain credentials'],
    [`https://example.com/${'a'.repeat(2048)}`, 'Must be at most 2048 characters'],
  ])('%s → %s', (url, problem) => {
    expect(webhookUrlProblem(url)).toBe(problem);
  });
});

describe('webhookBody', () => {
  it('sends link.clicked as the spec body', () => {
    const data = { event: 'link.clicked', link: { id: 'l', shortCode: 's', migration_metadata: null }, click: { device: 'mobile', country: 'FR', timestamp: 't' } };
    expect(webhookBody('link.clicked', data)).toEqual(data);
    expect(Object.keys(webhookBody('link.clicked', data))[0]).toBe('event');
  });

  it('wraps the other kinds under their resource name', () => {
    expect(webhookBody('link.deleted', { id: 'l' })).toEqual({ event: 'link.deleted', link: { id: 'l' } });
    expect(webhookBody('install.attributed', { installId: 'i' })).toEqual({ event: 'install.attributed', install: { installId: 'i' } });
    expect(webhookBody('report.generated', { period: '2026-10' })).toEqual({ event: 'report.generated', report: { period: '2026-10' } });
  });
});
