import fc from 'fast-check';
import { BodyValidator, createValidationPipe, ValidationError } from '@dl/platform/http';

/** What a body check answered: the DTO, the contract's 400 (map with its key order, message), or another error. */
export type Verdict =
  | { kind: 'dto'; value: unknown }
  | { kind: 'invalid'; message: string; validation: Record<string, string>; fields: string[] }
  | { kind: 'error'; error: string };

function verdictOf(err: unknown): Verdict {
  if (err instanceof ValidationError) {
    const validation = err.options.validation ?? {};
    return { kind: 'invalid', message: err.message, validation, fields: Object.keys(validation) };
  }
  return { kind: 'error', error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

const pipe = createValidationPipe();
/** A copy in this realm (jest's): structuredClone's objects come from Node's own and fail `instanceof Object` here. */
const copy = (body: unknown): unknown => (body === undefined ? undefined : JSON.parse(JSON.stringify(body)));

/** The global ValidationPipe's verdict on a JSON body for `metatype` (on a copy: the pipe edits what it gets). */
export async function pipeVerdict(metatype: new () => unknown, body: unknown): Promise<Verdict> {
  try {
    return { kind: 'dto', value: await pipe.transform(copy(body), { type: 'body', metatype }) };
  } catch (err) {
    return verdictOf(err);
  }
}

/** A compiled body validator's verdict on the same body (on a copy). */
export function compiledVerdict(validator: BodyValidator<unknown>, body: unknown): Verdict {
  try {
    return { kind: 'dto', value: validator(copy(body)) };
  } catch (err) {
    return verdictOf(err);
  }
}

/** Both verdicts on one body, for `expect(compiled).toStrictEqual(pipe)` (DTO class, fields, messages, order). */
export async function bothVerdicts(metatype: new () => unknown, validator: BodyValidator<unknown>, body: unknown): Promise<{ pipe: Verdict; compiled: Verdict }> {
  return { pipe: await pipeVerdict(metatype, body), compiled: compiledVerdict(validator, body) };
}

/** Hostile strings: lone surrogates, NUL, long runs, binary, and the names class-transformer and the pipe treat apart. */
export const hostileText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 20 }).map((u) => String.fromCharCode(...u)),
  fc.constantFrom('', '\u0000', '\ud800', 'x'.repeat(300), '$value', '$property', '$&', 'toString', 'hasOwnProperty', 'prototype', 'constructor', '__proto__', '0', 'length'),
);

/** Any JSON value (as a body parser gives it), hostile keys and strings included. */
export const jsonBodyValue: fc.Arbitrary<unknown> = fc
  .letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileText,
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileText, tie('value'), { maxKeys: 4 }),
    ),
  }))
  .value.map((v) => JSON.parse(JSON.stringify(v)) as unknown);

/**
 * Bodies near a DTO's valid ones: each field one of its values (`fields`), with `noise` now and
 * then any JSON value instead, and now and then an unknown field; required fields usually
 * present, optional ones half the time. Both verdicts (the DTO and a 400) come up often.
 */
export function bodyNear(fields: Record<string, fc.Arbitrary<unknown>>, required: readonly string[] = [], noise = true): fc.Arbitrary<unknown> {
  const entries = Object.entries(fields).map(([key, good]) => {
    const value = noise ? fc.oneof({ arbitrary: good, weight: 15 }, { arbitrary: jsonBodyValue, weight: 1 }) : good;
    const present = required.includes(key) ? fc.integer({ min: 0, max: 19 }).map((n) => !noise || n > 0) : fc.boolean();
    return fc.tuple(fc.constant(key), present, value);
  });
  const extra = noise ? fc.option(fc.tuple(hostileText, jsonBodyValue), { freq: 10 }) : fc.constant(null);
  return fc.tuple(fc.tuple(...entries), extra).map(([pairs, unknown]) => {
    const body: Record<string, unknown> = {};
    for (const [key, present, value] of pairs) if (present) body[key] = value;
    if (unknown) body[unknown[0]] = unknown[1];
    return JSON.parse(JSON.stringify(body)) as unknown;
  });
}
