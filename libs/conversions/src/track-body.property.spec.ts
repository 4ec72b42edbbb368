import fc from 'fast-check';
import { CompiledBodyPipe } from '@dl/platform/http';
import { bodyNear, bothVerdicts, hostileText, jsonBodyValue } from '@dl/testing';
import { TrackLeadDto, TrackRefundDto, TrackSaleDto } from './track.dto';

/** Usually a good value, now and then a bad one (bodyNear adds any JSON value too). */
const mostly = <T, U>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<U>) => fc.oneof({ arbitrary: good, weight: 8 }, { arbitrary: bad, weight: 1 });
const amount = mostly(fc.integer({ min: 0, max: 1e12 }), fc.constantFrom(-1, 49.99, 1e12 + 1, '100', null));
const metadata = mostly(
  fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxKeys: 4 }),
  fc.constantFrom(Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`k${n}`, n])), { blob: 'x'.repeat(3000) }, [1], 'x'),
);
const name = (max: number) => mostly(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('', 'x'.repeat(max + 1), 7));

const bodies = {
  lead: (noise: boolean) =>
    bodyNear(
      {
        clickId: mostly(fc.uuid(), fc.constant('nope')),
        eventName: name(100),
        customerExternalId: name(100),
        customerName: fc.oneof(name(200), fc.constant(null)),
        customerEmail: fc.oneof(name(320), fc.constant(null)),
        metadata: fc.oneof(metadata, fc.constant(null)),
      },
      ['clickId', 'eventName', 'customerExternalId'],
      noise,
    ),
  sale: (noise: boolean) =>
    bodyNear(
      {
        customerExternalId: name(100),
        amount,
        currency: mostly(fc.constantFrom('USD', 'eur', 'JPY', 'KWD'), fc.constantFrom('XYZ', 'US', 'usd1', '')),
        eventName: name(100),
        invoiceId: fc.oneof(name(200), fc.constant(null)),
        paymentProcessor: fc.oneof(name(50), fc.constant(null)),
        metadata: fc.oneof(metadata, fc.constant(null)),
      },
      ['customerExternalId', 'amount', 'currency'],
      noise,
    ),
  refund: (noise: boolean) => bodyNear({ invoiceId: name(200), amount: mostly(fc.integer({ min: 1, max: 1e12 }), fc.constantFrom(0, -5, 1.5)) }, ['invoiceId'], noise),
};

describe('tracking bodies: the compiled pipe (CompiledBodyPipe)', () => {
  it.each([
    ['lead', TrackLeadDto, bodies.lead],
    ['sale', TrackSaleDto, bodies.sale],
    ['refund', TrackRefundDto, bodies.refund],
  ] as const)('%s: gives the global ValidationPipe’s verdict on any body, the same DTO or the same 400 (property-based)', async (_route, metatype, body) => {
    const pipe = new CompiledBodyPipe<unknown>(metatype);
    const kinds = { dto: 0, invalid: 0, error: 0 };
    await fc.assert(
      fc.asyncProperty(fc.oneof(body(false), body(true), jsonBodyValue, hostileText), async (value) => {
        const { pipe: viaPipe, compiled } = await bothVerdicts(metatype, (b) => pipe.transform(b), value);
        expect(compiled).toStrictEqual(viaPipe);
        kinds[viaPipe.kind]++;
      }),
      { numRuns: 600 },
    );
    expect(kinds.dto).toBeGreaterThan(20);
    expect(kinds.invalid).toBeGreaterThan(20);
  });
});
