import fc from 'fast-check';
import { ValidationError } from '@dl/platform/http';
import { bodyNear, bothVerdicts, hostileText, jsonBodyValue } from '@dl/testing';
import { CreateLinkBodyPipe } from './create-link-body.pipe';
import { CreateLinkDto } from './link.dto';
import { registerLinkValidationMessages } from './validation-messages';

registerLinkValidationMessages();

const DAY = 86_400_000;
/** Usually a good value, now and then a bad one (bodyNear adds any JSON value too). */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 12 }, { arbitrary: bad, weight: 1 });
const url = mostly(fc.webUrl(), fc.constantFrom('ftp://example.com', 'https://exämple.com/ü', 'example.com', ''));
const future = fc.integer({ min: 1, max: 3650 }).map((days) => new Date(Date.now() + days * DAY).toISOString());
const past = fc.integer({ min: 1, max: 3650 }).map((days) => new Date(Date.now() - days * DAY).toISOString());
const codes = <T>(good: readonly T[], bad: readonly T[]) => fc.array(mostly(fc.constantFrom(...good), fc.constantFrom(...bad)), { minLength: 1, maxLength: 2 });
const rule = (noise: boolean) => bodyNear(
  {
    url,
    conditions: bodyNear({
      countries: codes(['US', 'FR'], ['XX', 'us']),
      languages: codes(['en', 'fr'], ['EN']),
      devices: codes(['ios', 'android', 'web'], ['tv']),
      os: codes(['iOS', 'Android'], ['BeOS']),
      query: fc.dictionary(fc.constantFrom('ref', 'utm'), fc.string({ maxLength: 5 }), { minKeys: 1, maxKeys: 2 }),
      after: mostly(past, future),
      before: mostly(future, past),
    }, [], noise),
  },
  ['url', 'conditions'],
  noise,
);

/** Bodies near the ones customers send: every field of CreateLinkDto, nested ones included. */
const createBody = (noise: boolean) => bodyNear(
  {
    templateId: mostly(fc.uuid(), fc.constant('x')),
    originalUrl: url,
    title: mostly(fc.oneof(fc.string({ maxLength: 10 }), fc.constant(null)), fc.constant('x'.repeat(501))),
    description: fc.string({ maxLength: 10 }),
    customCode: mostly(fc.constantFrom('Abcd1234', 'Zz99'), fc.constantFrom('a-b', 'abc')),
    projectId: mostly(fc.oneof(fc.uuid(), fc.constant(null)), fc.constant('nope')),
    password: mostly(fc.constantFrom('secret', null), fc.constant('x')),
    iosUrl: fc.oneof(url, fc.constant(null)),
    expiredUrl: fc.oneof(url, fc.constant(null)),
    attributionWindowHours: mostly(fc.integer({ min: 1, max: 2160 }), fc.constantFrom(0, 2161, 1.5, '5')),
    utmParameters: bodyNear({ source: fc.string({ maxLength: 5 }), utm_medium: fc.string({ maxLength: 5 }) }, [], noise),
    targetingRules: bodyNear({ countries: codes(['US', 'DE'], ['de']), platforms: codes(['ios', 'web'], ['tv']) }, [], noise),
    deepLinkParameters: fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean()), { maxKeys: 3 }),
    tags: mostly(fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 10 }), fc.constantFrom([' '], Array(11).fill('a'))),
    expiresAt: mostly(future, fc.oneof(past, fc.constant('soon'))),
    maxClicks: mostly(fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constant(null)), fc.constant(0)),
    variants: mostly(
      fc.integer({ min: 1, max: 99 }).map((w) => [{ url: 'https://a.example/', weight: w }, { url: 'https://b.example/', weight: 100 - w }]),
      fc.array(bodyNear({ url, weight: fc.integer({ min: 0, max: 100 }) }, ['url', 'weight'], noise), { maxLength: 4 }),
    ),
    redirectRules: fc.array(rule(noise), { maxLength: 3 }),
    cloak: mostly(fc.boolean(), fc.constant('true')),
    domain: mostly(fc.constant('go.example.com'), fc.constant('x'.repeat(301))),
  },
  ['templateId'],
  noise,
);

describe(CreateLinkBodyPipe.name, () => {
  const pipe = new CreateLinkBodyPipe();
  const validator = (body: unknown) => pipe.transform(body);

  it('gives the global ValidationPipe’s verdict on any body: the same DTO, or the same 400 (property-based)', async () => {
    const kinds = { dto: 0, invalid: 0, error: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(createBody(false), createBody(true), jsonBodyValue, hostileText), async (body) => {
        const { pipe: viaPipe, compiled } = await bothVerdicts(CreateLinkDto, validator, body);
        expect(compiled).toStrictEqual(viaPipe);
        kinds[viaPipe.kind]++;
      }),
      { numRuns: 1500 },
    );
    expect(kinds.dto).toBeGreaterThan(50);
    expect(kinds.invalid).toBeGreaterThan(20);
  });

  it('answers a CreateLinkDto, and the contract’s 400 with the link message rules', () => {
    const T = '11111111-1111-4111-8111-111111111111';
    const dto = pipe.transform({ templateId: T, title: 't', utmParameters: { source: 's' } });
    expect(dto).toBeInstanceOf(CreateLinkDto);
    expect(dto).toMatchObject({ templateId: T, title: 't', utmParameters: { source: 's' } });
    expect(() => pipe.transform({ templateId: T, expiredUrl: 'nope' })).toThrow(
      expect.objectContaining({ message: 'Invalid URL format', options: { validation: { expiredUrl: 'Must be a valid URL' } } }) as ValidationError,
    );
  });
});
