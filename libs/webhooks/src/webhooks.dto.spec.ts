import { pipeAccepts, pipeRefusal } from '@dl/testing';
import { CreateWebhookDto } from './webhooks.dto';

const KINDS = 'link.clicked, link.created, link.updated, link.deleted, install.attributed, report.generated, lead.created, sale.created, link.flagged';
const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });

// POST /api/webhooks's body as the api's validation pipe reads it (decisions §10); the e2e spec
// keeps one refusal over HTTP. SSRF at connect time: address-guard.spec.ts and webhooks-ssrf.e2e.
describe(CreateWebhookDto.name, () => {
  it('takes a URL, event kinds and a project', async () => {
    expect({ ...(await pipeAccepts(CreateWebhookDto, { url: 'https://example.com/x', events: ['link.clicked'], projectId: '3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' })) }).toMatchObject({
      url: 'https://example.com/x',
      events: ['link.clicked'],
      projectId: '3f2b6a4e-1c2d-4e5f-8a9b-0c1d2e3f4a5b',
    });
  });

  it.each([
    ['a non-URL', { url: 'not a url', events: ['link.clicked'] }, { url: 'Must be a valid URL' }],
    ['a non-http(s) URL', { url: 'ftp://example.com/x', events: ['link.clicked'] }, { url: 'Must be an http or https URL' }],
    ['a javascript: URL', { url: 'javascript:alert(1)', events: ['link.clicked'] }, { url: 'Must be an http or https URL' }],
    ['credentials in the URL', { url: 'https://user:pw@example.com/x', events: ['link.clicked'] }, { url: 'Must not contain credentials' }],
    ['a user name in the URL', { url: 'https://user@example.com/x', events: ['link.clicked'] }, { url: 'Must not contain credentials' }],
    ['a URL that is too long', { url: `https://example.com/${'a'.repeat(2100)}`, events: ['link.clicked'] }, { url: 'Must be at most 2048 characters' }],
    ['a number as URL', { url: 42, events: ['link.clicked'] }, { url: 'Must be a valid URL' }],
    ['an unknown event kind', { url: 'https://example.com/x', events: ['link.clicked', 'link.exploded'] }, { events: `Unknown event type; expected one of: ${KINDS}` }],
    ['no events', { url: 'https://example.com/x', events: [] }, { events: `Must be a non-empty array of: ${KINDS}` }],
    ['events not an array', { url: 'https://example.com/x', events: 'link.clicked' }, { events: `Must be a non-empty array of: ${KINDS}` }],
    ['a projectId that is not a UUID', { url: 'https://example.com/x', events: ['link.clicked'], projectId: 'p1' }, { projectId: 'Must be a valid UUID' }],
    ['an unknown field', { url: 'https://example.com/x', events: ['link.clicked'], secret: 'whsec_mine' }, { secret: 'Unknown field' }],
  ])('refuses %s, naming the field', async (_name, body, validation) => {
    expect(await pipeRefusal(CreateWebhookDto, body)).toEqual(bad(validation));
  });

  it('names every missing field at once', async () => {
    expect(Object.keys((await pipeRefusal(CreateWebhookDto, {})).validation ?? {}).sort()).toEqual(['events', 'url']);
  });
});
