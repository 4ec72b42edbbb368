import { registerLinkValidationMessages } from '@dl/links';
import { pipeRefusal } from '@dl/testing';
import { CreateTemplateDto, UpdateTemplateDto } from './template.dto';

const bad = (message: string, validation: Record<string, string>) => ({ error: 'Bad Request', message, statusCode: 400, validation });
const NAME = 'Must be a non-empty string of at most 100 characters';
const SLUG = 'Must be 1-64 lowercase letters, digits and single hyphens';

beforeAll(() => registerLinkValidationMessages());

// Template bodies as the api's validation pipe reads them (decisions §6a); the e2e spec keeps
// one refusal over HTTP, the service's rules are in templates.service.medium.spec.ts.
describe(CreateTemplateDto.name, () => {
  it.each([
    [{}, { name: NAME }],
    [{ name: '' }, { name: NAME }],
    [{ name: 5 }, { name: NAME }],
    [{ name: 'x', slug: 'Bad Slug' }, { slug: SLUG }],
    [{ name: 'x', description: 1 }, { description: 'Must be a string of at most 1000 characters' }],
    [{ name: 'x', defaults: 'x' }, { defaults: 'Must be an object' }],
    [{ name: 'x', defaults: { customCode: 'abcd' } }, { 'defaults.customCode': 'Unknown field' }],
    [{ name: 'x', defaults: { projectId: '00000000-0000-4000-8000-000000000000' } }, { 'defaults.projectId': 'Unknown field' }],
    [{ name: 'x', defaults: { password: 'abcd' } }, { 'defaults.password': 'Unknown field' }],
    [{ name: 'x', defaults: { expiresInDays: 0 } }, { 'defaults.expiresInDays': 'Must be between 1 and 3650' }],
    [{ name: 'x', extra: 1 }, { extra: 'Unknown field' }],
  ])('%j → 400 Validation error', async (body, validation) => {
    expect(await pipeRefusal(CreateTemplateDto, body)).toEqual(bad('Validation error', validation));
  });

  it('a bad URL or attribution window in the defaults takes the link messages', async () => {
    expect(await pipeRefusal(CreateTemplateDto, { name: 'x', defaults: { originalUrl: 'ftp://x' } })).toEqual(bad('Invalid URL format', { 'defaults.originalUrl': 'Must be a valid URL' }));
    expect(await pipeRefusal(CreateTemplateDto, { name: 'x', defaults: { attributionWindowHours: 0 } })).toEqual(
      bad('Attribution window must be between 1 and 2160 hours', { 'defaults.attributionWindowHours': 'Must be between 1 and 2160' }),
    );
  });
});

describe(UpdateTemplateDto.name, () => {
  it('null name or slug → 400 naming it', async () => {
    expect(await pipeRefusal(UpdateTemplateDto, { name: null })).toEqual(bad('Validation error', { name: NAME }));
    expect(await pipeRefusal(UpdateTemplateDto, { slug: null })).toEqual(bad('Validation error', { slug: SLUG }));
  });
});
