import { ValidationError } from '@dl/platform/http';
import { CreateLinkBodyPipe, plainlyValidCreateBody } from './create-link-body.pipe';
import { CreateLinkDto } from './link.dto';
import { validateItem } from './validate-item';

const T = '11111111-1111-4111-8111-111111111111';
const future = new Date(Date.now() + 86_400_000).toISOString();

/** The fast path may only accept what the class-validator rules accept. */
describe('CreateLinkBodyPipe fast path', () => {
  const accepted: unknown[] = [
    { templateId: T },
    { templateId: T, originalUrl: 'https://example.com/a?b=1', title: 'x'.repeat(500), customCode: 'Abcd1234' },
    { templateId: T, projectId: T, attributionWindowHours: 2160, expiresAt: future, tags: ['a', 'b'], iosUrl: null, title: null },
    { templateId: T, appScheme: 'myapp', deepLinkPath: 'p/1', ogTitle: 't', ogDescription: 'd', ogImageUrl: 'http://i.example/x.png' },
  ];
  const fallback: unknown[] = [
    null, [], 'x', {}, { templateId: 'x' }, { templateId: null },
    { templateId: T, foo: 1 },
    { templateId: T, originalUrl: 'ftp://example.com' }, { templateId: T, originalUrl: '' }, { templateId: T, originalUrl: 5 },
    { templateId: T, title: 'x'.repeat(501) }, { templateId: T, customCode: 'a-b' }, { templateId: T, customCode: 'abc' },
    { templateId: T, projectId: 'nope' }, { templateId: T, attributionWindowHours: 0 }, { templateId: T, attributionWindowHours: 1.5 },
    { templateId: T, attributionWindowHours: '5' }, { templateId: T, expiresAt: '2000-01-01T00:00:00Z' }, { templateId: T, expiresAt: 'soon' },
    { templateId: T, tags: Array(11).fill('a') }, { templateId: T, tags: [''] }, { templateId: T, tags: 'a' },
    { templateId: T, utmParameters: { source: 's' } }, { templateId: T, targetingRules: {} }, { templateId: T, deepLinkParameters: { a: 1 } },
    { templateId: T, shortCode: 'abcd' }, { templateId: T, isActive: true },
  ];

  it.each(accepted.map((b) => [b]))('accepts %j, which class-validator accepts too', (body) => {
    expect(plainlyValidCreateBody(body)).toBe(true);
    expect(validateItem(CreateLinkDto, body).errors).toEqual({});
  });

  it.each(fallback.map((b) => [b]))('leaves %j to class-validator', (body) => {
    expect(plainlyValidCreateBody(body)).toBe(false);
  });

  it('answers a DTO instance, and the global rules (exact messages) for anything else', async () => {
    const pipe = new CreateLinkBodyPipe();
    const dto = await pipe.transform({ templateId: T, title: 't' }, { type: 'body', metatype: Object });
    expect(dto).toBeInstanceOf(CreateLinkDto);
    expect(dto).toMatchObject({ templateId: T, title: 't' });
    const nested = await pipe.transform({ templateId: T, utmParameters: { source: 's' } }, { type: 'body', metatype: Object });
    expect(nested.utmParameters).toEqual({ source: 's' });
    await expect(pipe.transform({ templateId: T, foo: 1 }, { type: 'body', metatype: Object })).rejects.toBeInstanceOf(ValidationError);
  });
});
