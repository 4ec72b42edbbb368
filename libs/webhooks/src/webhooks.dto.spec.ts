import { InstallAttributedWebhookData, ReportGeneratedWebhookData } from '@dl/platform/queue';
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
    const data = { event: 'link.clicked' as const, link: { id: 'l', shortCode: 's', migration_metadata: null }, click: { device: 'mobile', country: 'FR', timestamp: 't' } };
    expect(webhookBody({ type: 'link.clicked', data })).toEqual(data);
    expect(Object.keys(webhookBody({ type: 'link.clicked', data }))[0]).toBe('event');
  });

  it('wraps the other kinds under their resource name', () => {
    const link = { id: 'l', shortCode: 's' };
    expect(webhookBody({ type: 'link.deleted', data: link })).toEqual({ event: 'link.deleted', link });
    const install = { installId: 'i' } as InstallAttributedWebhookData;
    expect(webhookBody({ type: 'install.attributed', data: install })).toEqual({ event: 'install.attributed', install: { installId: 'i' } });
    const report = { period: '2026-10' } as ReportGeneratedWebhookData;
    expect(webhookBody({ type: 'report.generated', data: report })).toEqual({ event: 'report.generated', report: { period: '2026-10' } });
  });
});
