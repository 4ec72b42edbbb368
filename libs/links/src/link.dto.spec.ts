import { errorBodyOf, pipeAccepts, pipeRefusal } from '@dl/testing';
import { CreateLinkDto, UpdateLinkDto } from './link.dto';
import { checkedPatch } from './links.service';
import { registerLinkValidationMessages } from './validation-messages';
import { itemError, validateItem } from './validate-item';

// The rules of a link body as the api's validation pipe applies them (decisions §6, §14, §16):
// each refusal is the exact contract body the route answers. The e2e specs keep one of each
// family over HTTP; the service's rules (templates, projects, codes, limits) are medium specs.
const T = '11111111-1111-4111-8111-111111111111';
const U = 'https://example.com';
const bad = (message: string, validation: Record<string, string>) => ({ error: 'Bad Request', message, statusCode: 400, validation });
const URL_MESSAGE = { message: 'Invalid URL format', field: 'Must be a valid URL' };
const ATTRIBUTION = 'Attribution window must be between 1 and 2160 hours';
const TAGS = 'Must be an array of at most 10 strings of 1-40 characters';

beforeAll(() => registerLinkValidationMessages());

describe(CreateLinkDto.name, () => {
  const refusal = (body: Record<string, unknown>) => pipeRefusal(CreateLinkDto, { templateId: T, originalUrl: U, ...body });

  it('accepts every link-control field (tags are trimmed and de-duplicated by the service)', async () => {
    const dto = await pipeAccepts(CreateLinkDto, {
      templateId: T,
      originalUrl: U,
      password: 'open sesame',
      expiredUrl: 'https://example.com/over',
      maxClicks: 1_000_000_000,
      variants: [{ url: 'https://a.example/', weight: 30 }, { url: 'https://b.example/', weight: 70 }],
      redirectRules: [{ conditions: { os: ['Windows', 'macOS'], browsers: ['Chrome', 'Samsung Internet'] }, url: 'https://desk.example/' }],
      cloak: true,
      publicStats: true,
      attributionWindowHours: 2160,
      tags: ['  Launch ', 'launch'],
    });
    expect(dto).toBeInstanceOf(CreateLinkDto);
    expect(dto).toMatchObject({ password: 'open sesame', maxClicks: 1_000_000_000, cloak: true, attributionWindowHours: 2160, tags: ['  Launch ', 'launch'] });
    expect(await pipeAccepts(CreateLinkDto, { templateId: T, attributionWindowHours: 1, originalUrl: `https://example.com/${'x'.repeat(2048 - 20)}` })).toMatchObject({ attributionWindowHours: 1 });
  });

  it.each([
    ['javascript:alert(1)'],
    ['data:text/html,hi'],
    ['file:///etc/passwd'],
    ['ftp://example.com/x'],
    ['/relative/path'],
    ['example.com'],
    ['https://'],
    [`https://example.com/${'x'.repeat(2040)}`],
    [42],
    [['https://example.com']],
    [''],
  ])('originalUrl %j → Invalid URL format', async (originalUrl) => {
    expect(await refusal({ originalUrl })).toEqual(bad(URL_MESSAGE.message, { originalUrl: URL_MESSAGE.field }));
  });

  it.each(['iosUrl', 'androidUrl', 'webFallbackUrl', 'ogImageUrl', 'iosUniversalLink', 'androidAppLink', 'expiredUrl'])('%s invalid → Invalid URL format naming it', async (field) => {
    expect(await refusal({ [field]: 'javascript:alert(1)' })).toEqual(bad(URL_MESSAGE.message, { [field]: URL_MESSAGE.field }));
  });

  it.each([0, 2161, 1.5, '24', -1, 'x'])('attributionWindowHours %j → the attribution message', async (attributionWindowHours) => {
    expect(await refusal({ attributionWindowHours })).toEqual(bad(ATTRIBUTION, { attributionWindowHours: 'Must be between 1 and 2160' }));
  });

  it('several bad fields: the message follows the first rule that applies, validation names them all', async () => {
    expect(await refusal({ originalUrl: 'nope', attributionWindowHours: 0, title: 5 })).toEqual(
      bad('Invalid URL format', {
        originalUrl: 'Must be a valid URL',
        attributionWindowHours: 'Must be between 1 and 2160',
        title: 'Must be a string of at most 500 characters',
      }),
    );
    expect((await refusal({ attributionWindowHours: 0, title: 5 })).message).toBe(ATTRIBUTION);
  });

  const elevenVariants = Array.from({ length: 11 }, () => ({ url: U, weight: 9 }));
  it.each([
    [{ title: 5 }, { title: 'Must be a string of at most 500 characters' }],
    [{ title: 'x'.repeat(501) }, { title: 'Must be a string of at most 500 characters' }],
    [{ description: {} }, { description: 'Must be a string of at most 2000 characters' }],
    [{ customCode: 'abc' }, { customCode: 'Must be 4-30 characters, alphanumeric only' }],
    [{ customCode: 'abc-def' }, { customCode: 'Must be 4-30 characters, alphanumeric only' }],
    [{ customCode: 'a'.repeat(31) }, { customCode: 'Must be 4-30 characters, alphanumeric only' }],
    [{ customCode: 1234 }, { customCode: 'Must be 4-30 characters, alphanumeric only' }],
    [{ projectId: 'nope' }, { projectId: 'Must be a valid UUID' }],
    [{ templateId: undefined }, { templateId: 'Must be a valid UUID' }],
    [{ templateId: 'nope' }, { templateId: 'Must be a valid UUID' }],
    [{ templateId: 7 }, { templateId: 'Must be a valid UUID' }],
    [{ expiresAt: '2020-01-01T00:00:00Z' }, { expiresAt: 'Must be a future date' }],
    [{ expiresAt: 'tomorrow' }, { expiresAt: 'Must be an ISO 8601 date' }],
    [{ expiresAt: 123 }, { expiresAt: 'Must be an ISO 8601 date' }],
    [{ utmParameters: 'x' }, { utmParameters: 'Must be an object' }],
    [{ utmParameters: { utm_source: 5 } }, { 'utmParameters.utm_source': 'Must be a string of at most 255 characters' }],
    [{ utmParameters: { foo: 'x' } }, { 'utmParameters.foo': 'Unknown field' }],
    [{ targetingRules: { countries: ['usa'] } }, { 'targetingRules.countries': 'Must be an array of ISO 3166-1 alpha-2 country codes' }],
    [{ targetingRules: { platforms: ['windows'] } }, { 'targetingRules.platforms': 'Must be an array of ios, android or web' }],
    [{ targetingRules: { languages: 'en' } }, { 'targetingRules.languages': 'Must be an array of ISO 639-1 language codes' }],
    [{ deepLinkParameters: { a: { nested: true } } }, { deepLinkParameters: 'Must be an object of string, number or boolean values' }],
    [{ deepLinkParameters: { constructor: 'x' } }, { 'deepLinkParameters.constructor': 'Must not be named constructor or __proto__' }],
    [{ tags: 'a,b' }, { tags: TAGS }],
    [{ tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }, { tags: TAGS }],
    [{ tags: ['x'.repeat(41)] }, { tags: TAGS }],
    [{ tags: ['   '] }, { tags: TAGS }],
    [{ isActive: false }, { isActive: 'Unknown field' }],
    [{ shortCode: 'abcdefg' }, { shortCode: 'Unknown field' }],
    [{ foo: 1 }, { foo: 'Unknown field' }],
    // Link controls (decisions §16).
    [{ variants: [{ url: U, weight: 50 }, { url: U, weight: 40 }] }, { variants: 'Weights must sum to 100' }],
    [{ variants: [{ url: U, weight: 100 }] }, { variants: 'Must be an array of 2-10 variants' }],
    [{ variants: elevenVariants }, { variants: 'Must be an array of 2-10 variants' }],
    [{ variants: [{ url: U, weight: 0 }, { url: U, weight: 100 }] }, { 'variants[0].weight': 'Must be an integer between 1 and 100' }],
    [{ variants: [{ url: U, weight: 50 }, { url: U, weight: '50' }] }, { 'variants[1].weight': 'Must be an integer between 1 and 100' }],
    [{ redirectRules: [{ conditions: {}, url: U }] }, { 'redirectRules[0].conditions': 'Must have at least one condition' }],
    [{ redirectRules: [{ conditions: null, url: U }] }, { 'redirectRules[0].conditions': 'Must be an object' }],
    [{ redirectRules: [{ url: U }] }, { 'redirectRules[0].conditions': 'Must be an object' }],
    [
      { redirectRules: [{ conditions: { planet: ['mars'] }, url: U }] },
      { 'redirectRules[0].conditions': 'Must have at least one condition', 'redirectRules[0].conditions.planet': 'Unknown field' },
    ],
    [{ redirectRules: [{ conditions: { after: '2027-01-01T00:00:00Z', before: '2026-01-01T00:00:00Z' }, url: U }] }, { 'redirectRules[0].conditions.before': 'Must be later than after' }],
    [{ redirectRules: [{ conditions: { countries: ['USA'] }, url: U }] }, { 'redirectRules[0].conditions.countries': 'Must be an array of ISO 3166-1 alpha-2 country codes' }],
    [{ redirectRules: [{ conditions: { countries: ['XX'] }, url: U }] }, { 'redirectRules[0].conditions.countries': 'Must be an array of ISO 3166-1 alpha-2 country codes' }],
    [{ redirectRules: [{ conditions: { os: ['BeOS'] }, url: U }] }, { 'redirectRules[0].conditions.os': 'Must be an array of iOS, Android, Windows, macOS, Linux' }],
    // A member that is itself an array would pass @ValidateNested (it descends into nested arrays).
    [{ redirectRules: [[]] }, { redirectRules: 'Must be an array of objects' }],
    [{ variants: [[], []] }, { variants: 'Must be an array of objects' }],
    [{ redirectRules: Array.from({ length: 21 }, () => ({ conditions: { devices: ['ios'] }, url: U })) }, { redirectRules: 'Must be an array of at most 20 rules' }],
    [{ maxClicks: 0 }, { maxClicks: 'Must be an integer between 1 and 1000000000' }],
    [{ maxClicks: 1_000_000_001 }, { maxClicks: 'Must be an integer between 1 and 1000000000' }],
    [{ password: 'ab' }, { password: 'Must be 4-128 characters' }],
    [{ password: 'x'.repeat(129) }, { password: 'Must be 4-128 characters' }],
    [{ cloak: 'yes' }, { cloak: 'Must be a boolean' }],
  ])('%j → Validation error', async (extra, validation) => {
    expect(await refusal(extra)).toEqual(bad('Validation error', validation));
  });

  it.each([
    [{ variants: [{ url: U, weight: 50 }, { url: 'javascript:alert(1)', weight: 50 }] }, 'variants[1].url'],
    [{ redirectRules: [{ conditions: { devices: ['ios'] }, url: 'data:text/html,x' }] }, 'redirectRules[0].url'],
  ])('a control URL %j → Invalid URL format naming it', async (extra, field) => {
    expect(await refusal(extra)).toEqual(bad(URL_MESSAGE.message, { [field]: URL_MESSAGE.field }));
  });
});

describe(UpdateLinkDto.name, () => {
  it('accepts a partial body, null clearing optional fields', async () => {
    expect(await pipeAccepts(UpdateLinkDto, { title: null, webFallbackUrl: null, isActive: false, password: null, variants: null })).toMatchObject({
      title: null,
      isActive: false,
      password: null,
    });
  });

  it.each([
    [{ shortCode: 'NewCode1' }, 'Validation error', { shortCode: 'Short code cannot be changed' }],
    [{ customCode: 'NewCode1' }, 'Validation error', { customCode: 'Short code cannot be changed' }],
    [{ originalUrl: 'ftp://x' }, 'Invalid URL format', { originalUrl: 'Must be a valid URL' }],
    [{ attributionWindowHours: 9999 }, ATTRIBUTION, { attributionWindowHours: 'Must be between 1 and 2160' }],
    [{ isActive: 'yes' }, 'Validation error', { isActive: 'Must be a boolean' }],
    [{ templateId: 'x' }, 'Validation error', { templateId: 'Must be a valid UUID' }],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 'Validation error', { expiresAt: 'Must be a future date' }],
    [{ clickCount: 5 }, 'Validation error', { clickCount: 'Unknown field' }],
    [{ createdAt: '2030-01-01T00:00:00Z' }, 'Validation error', { createdAt: 'Unknown field' }],
    [{ variants: [{ url: U, weight: 100 }] }, 'Validation error', { variants: 'Must be an array of 2-10 variants' }],
  ])('%j → 400 %s', async (body, message, validation) => {
    expect(await pipeRefusal(UpdateLinkDto, body)).toEqual(bad(message, validation));
  });
});

describe('a bulk item (validateItem, itemError)', () => {
  it('names the failing item in the message and prefixes its fields', () => {
    const { errors } = validateItem(CreateLinkDto, { templateId: T, originalUrl: U, variants: [{ url: U, weight: 60 }, { url: U, weight: 60 }] });
    expect(errors).toEqual({ variants: 'Weights must sum to 100' });
    const err = itemError('links[1]', errors);
    expect([err.message, err.options.validation]).toEqual(['Validation error: links[1].variants: Weights must sum to 100', { 'links[1].variants': 'Weights must sum to 100' }]);
  });

  it('names a URL field first, then the attribution window', () => {
    const { errors } = validateItem(CreateLinkDto, { templateId: T, title: 5, attributionWindowHours: 0, originalUrl: 'nope' });
    expect(itemError('links[0]', errors).message).toBe('Validation error: links[0].originalUrl: Must be a valid URL');
    expect(validateItem(CreateLinkDto, 'not an object').errors).toEqual({ '': 'Must be an object' });
    expect(validateItem(CreateLinkDto, { templateId: T, constructor: 1 }).errors).toEqual({ constructor: 'Must not be named constructor or __proto__' });
  });
});

describe(checkedPatch.name, () => {
  const refusal = (dto: Partial<Record<keyof UpdateLinkDto, unknown>> | undefined) => errorBodyOf(Promise.resolve().then(() => checkedPatch(dto as UpdateLinkDto)));

  it('keeps the supplied fields, clearing optional ones with null', () => {
    expect(checkedPatch({ title: null, isActive: false, projectId: null } as UpdateLinkDto)).toMatchObject({ title: null, isActive: false, projectId: null });
  });

  it.each([
    [{ originalUrl: null }, 'Invalid URL format', { originalUrl: 'Must be a valid URL' }],
    [{ attributionWindowHours: null }, ATTRIBUTION, { attributionWindowHours: 'Must be between 1 and 2160' }],
    [{ isActive: null }, 'Validation error', { isActive: 'Must be a boolean' }],
    [{ templateId: null }, 'Validation error', { templateId: 'Must be a valid UUID' }],
  ])('null on a required field %j → 400 %s', async (dto, message, validation) => {
    expect(await refusal(dto)).toEqual(bad(message, validation));
  });

  it('an empty update → 400 No updates provided', async () => {
    expect(await refusal({})).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
    expect(await refusal({ title: undefined })).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
    expect(await refusal(undefined)).toEqual({ error: 'Bad Request', message: 'No updates provided', statusCode: 400 });
  });
});
