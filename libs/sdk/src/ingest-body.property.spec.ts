import { Type } from '@nestjs/common';
import fc from 'fast-check';
import { findUnstorableText } from '@dl/platform/db';
import { createValidationPipe, ValidationError } from '@dl/platform/http';
import { fastEvent, fastEventBatch, fastInstall, fastOpen } from './ingest.fast-validation';
import { PixelEventDto, SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto } from './ingest.dto';

const pipe = createValidationPipe();
const anyUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((u) => String.fromCharCode(...u));
const text = fc.oneof(anyUnits, fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('', '\u0000', 'x\u0000', '\ud800', '\udc00x', 'revenue', 'a'.repeat(300)));
const value = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));
const props = fc.dictionary(fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'currency', 'amount')), fc.oneof(value, fc.dictionary(text, value, { maxKeys: 3 })), { maxKeys: 6 });
const uuid = fc.oneof(fc.uuid(), text);
const event = fc.record(
  {
    installId: uuid,
    eventName: fc.oneof(text, fc.constantFrom('purchase', 'revenue', 'signup')),
    properties: fc.oneof(props, value),
    timestamp: fc.oneof(text, fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
    eventId: uuid,
    extra: value,
  },
  { requiredKeys: [] },
);
const install = fc.record(
  { installId: uuid, platform: fc.oneof(text, fc.constantFrom('ios', 'android', 'IOS')), osVersion: text, deviceModel: text, language: text, appVersion: text, clickId: uuid },
  { requiredKeys: [] },
);
const body = fc.oneof(
  event,
  install,
  fc.record({ installId: uuid, url: fc.oneof(text, fc.webUrl()) }, { requiredKeys: [] }),
  fc.record({ events: fc.oneof(fc.array(event, { maxLength: 5 }), value) }, { requiredKeys: [] }),
  fc.anything({ withNullPrototype: true, withSparseArray: true }),
  fc.jsonValue(),
);

const routes: Array<[Type<unknown>, (b: unknown) => unknown]> = [
  [SdkEventDto, (b) => fastEvent(b)],
  [SdkEventBatchDto, (b) => fastEventBatch(b)],
  [SdkInstallDto, fastInstall],
  [SdkOpenDto, fastOpen],
];

describe('SDK body validation (property-based, decisions §14)', () => {
  it('the fast checks never throw', () => {
    fc.assert(
      fc.property(body, (b) => {
        for (const [, fast] of routes) fast(b);
      }),
      { numRuns: 2000 },
    );
  });

  it('the validation pipe throws nothing but a validation error, refuses unstorable text, and accepts only storable DTOs', async () => {
    await fc.assert(
      fc.asyncProperty(body, fc.integer({ min: 0, max: routes.length - 1 }), async (b, i) => {
        const [metatype] = routes[i];
        try {
          const dto = await pipe.transform(b, { type: 'body', metatype });
          expect(findUnstorableText(dto)).toBeNull();
          expect(findUnstorableText(b)).toBeNull();
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('the pixel body (visitors) is stripped, never refused for its text', async () => {
    await fc.assert(
      fc.asyncProperty(text, text, async (url, referrer) => {
        const b = { siteKey: 'dlp_x', type: 'pageview', url: `https://shop.example.com/${url}`, referrer };
        try {
          const dto = (await pipe.transform(b, { type: 'body', metatype: PixelEventDto })) as PixelEventDto;
          expect(findUnstorableText(dto)).toBeNull();
        } catch (err) {
          expect(err).toBeInstanceOf(ValidationError);
          expect(Object.values((err as ValidationError).options.validation ?? {})).not.toContain('Must not contain NUL characters or unpaired surrogates');
        }
      }),
      { numRuns: 500 },
    );
  });
});
