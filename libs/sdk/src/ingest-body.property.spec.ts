import fc from 'fast-check';
import { findUnstorableText } from '@dl/platform/db';
import { compileBodyValidator, ValidationError } from '@dl/platform/http';
import { bodyNear, bothVerdicts, hostileText, jsonBodyValue } from '@dl/testing';
import { PixelEventDto, SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto } from './ingest.dto';

const DAY = 86_400_000;
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 10 }, { arbitrary: bad, weight: 1 });
const uuid = mostly(fc.oneof(fc.uuid(), fc.uuid().map((u) => u.toUpperCase())), fc.oneof(hostileText, fc.constant('not-a-uuid')));
const text = (max: number) => mostly(fc.string({ maxLength: max }), fc.oneof(hostileText, fc.constant('😀'.repeat(max))));
const properties = mostly(
  fc.dictionary(fc.constantFrom('revenue', 'currency', 'sku', 'nested'), fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 })), { maxKeys: 4 }),
  fc.oneof(jsonBodyValue, fc.constant({ big: 'x'.repeat(33 * 1024) }), fc.constant({ toString: 1, prototype: 2, a: 1 })),
);
// Far from the limits (30 days back, 5 minutes ahead): the verdict cannot change between the two checks.
const timestamp = mostly(
  fc.integer({ min: -29, max: 0 }).map((days) => new Date(Date.now() + days * DAY - 60_000).toISOString()),
  fc.oneof(fc.constantFrom('yesterday', '2020-01-01T00:00:00Z', new Date(Date.now() + DAY).toISOString()), hostileText),
);
const event = (noise: boolean) =>
  bodyNear({ installId: uuid, eventName: mostly(fc.constantFrom('purchase', 'signup'), text(120)), properties, timestamp, eventId: uuid }, ['installId', 'eventName'], noise);
const install = (noise: boolean) =>
  bodyNear(
    { installId: uuid, platform: mostly(fc.constantFrom('ios', 'android', 'IOS'), text(8)), osVersion: mostly(fc.constantFrom('17.5', '14'), text(40)), deviceModel: text(100), language: text(35), appVersion: text(32), clickId: uuid },
    ['installId', 'platform', 'osVersion'],
    noise,
  );
const open = (noise: boolean) => bodyNear({ installId: uuid, url: mostly(fc.webUrl(), text(2100)) }, ['installId'], noise);
const batch = (noise: boolean) => bodyNear({ events: mostly(fc.array(event(noise), { minLength: 1, maxLength: 4 }), fc.oneof(fc.constant([]), jsonBodyValue)) }, ['events'], noise);
const pixel = (noise: boolean) =>
  bodyNear(
    { siteKey: text(70), type: mostly(fc.constantFrom('pageview', 'conversion'), text(5)), url: mostly(fc.webUrl(), hostileText), referrer: text(60), clickId: uuid, value: mostly(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(-1, 1e7, 'x')), currency: text(3) },
    ['siteKey', 'type', 'url'],
    noise,
  );

const routes: Array<[new () => unknown, (noise: boolean) => fc.Arbitrary<unknown>]> = [
  [SdkEventDto, event],
  [SdkEventBatchDto, batch],
  [SdkInstallDto, install],
  [SdkOpenDto, open],
  [PixelEventDto, pixel],
];

describe('SDK and pixel bodies: the compiled rules and the ValidationPipe agree (property-based)', () => {
  it.each(routes.map(([dto, body]) => [dto.name, dto, body] as const))('%s', async (_name, metatype, body) => {
    const validator = compileBodyValidator(metatype);
    const kinds = { dto: 0, invalid: 0, error: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(body(false), body(true), jsonBodyValue), async (b) => {
        const { pipe, compiled } = await bothVerdicts(metatype, validator, b);
        expect(compiled).toStrictEqual(pipe);
        kinds[pipe.kind]++;
        // Nothing unstorable reaches a handler (decisions §14); refusals are the contract's 400.
        if (compiled.kind === 'dto') expect(findUnstorableText(compiled.value)).toBeNull();
        expect(compiled.kind).not.toBe('error');
      }),
      { numRuns: 800 },
    );
    expect(kinds.dto).toBeGreaterThan(40);
    expect(kinds.invalid).toBeGreaterThan(40);
  });

  it('refuses an event body with the exact messages of the DTO', () => {
    const check = compileBodyValidator(SdkEventDto);
    expect(() => check({ installId: 'x', eventName: '', timestamp: '2020-01-01T00:00:00Z', extra: 1 })).toThrow(
      expect.objectContaining({
        message: 'Validation error',
        options: {
          validation: {
            extra: 'Unknown field',
            installId: 'Must be a valid UUID',
            eventName: 'Must be 1-100 characters',
            timestamp: 'Must be within the last 30 days and at most 5 minutes in the future',
          },
        },
      }) as ValidationError,
    );
  });
});
