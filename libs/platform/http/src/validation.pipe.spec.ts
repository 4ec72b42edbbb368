import { IsInt, IsString, Max, Min } from 'class-validator';
import { renderError } from './error-body';
import { UNSTORABLE_TEXT_MESSAGE } from './hostile-text';
import { createValidationPipe, StripsUnstorableText } from './validation.pipe';

class EchoDto {
  @IsString() name: string;
  @IsInt() @Min(1) @Max(10) count: number;
}

@StripsUnstorableText()
class VisitorDto {
  @IsString() name: string;
}

const pipe = createValidationPipe();
const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });

async function refusal(value: unknown, metatype: new () => unknown = EchoDto, type: 'body' | 'query' = 'body') {
  try {
    await pipe.transform(value, { type, metatype });
  } catch (err) {
    return renderError(err).body;
  }
  throw new Error('expected a refusal');
}

// The global pipe's rules for hostile bodies and queries (decisions §14): each refusal is the
// contract's 400 naming where, before any recursive step could overflow the stack or lose a key.
// platform.e2e.spec.ts sends one of each over HTTP.
describe('the global validation pipe', () => {
  it('passes a valid body on as the DTO', async () => {
    const dto = await pipe.transform({ name: 'a', count: 3 }, { type: 'body', metatype: EchoDto });
    expect(dto).toBeInstanceOf(EchoDto);
    expect({ ...dto }).toEqual({ name: 'a', count: 3 });
  });

  it('names each failing field, unknown fields included', async () => {
    expect(await refusal({ name: 5, count: 99, extra: true })).toEqual(
      bad({ name: 'name must be a string', count: 'count must not be greater than 10', extra: 'Unknown field' }),
    );
  });

  it('a body or query nested deeper than 64 levels → 400 naming where', async () => {
    const deepArray = JSON.parse('['.repeat(50_000) + ']'.repeat(50_000)) as unknown;
    expect(await refusal(deepArray)).toEqual(bad({ ['[0]'.repeat(64)]: 'Must not be nested more than 64 levels deep' }));
    const deepObject = JSON.parse(`{"name":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}}`) as unknown;
    expect(await refusal(deepObject)).toEqual(bad({ [`name${'.a'.repeat(63)}`]: 'Must not be nested more than 64 levels deep' }));
    const sixtyFour = JSON.parse(`{"name":${'{"a":'.repeat(62)}1${'}'.repeat(62)}}`) as unknown;
    expect(await refusal(sixtyFour)).toEqual(bad({ name: 'name must be a string', count: 'count must not be greater than 10' }));
  });

  it('a key named constructor or __proto__, at any depth → 400 naming it', async () => {
    expect(await refusal({ name: 'x', count: 1, constructor: [1] })).toEqual(bad({ constructor: 'Must not be named constructor or __proto__' }));
    expect(await refusal({ name: { nested: [{ constructor: 'x' }] }, count: 1 })).toEqual(bad({ 'name.nested[0].constructor': 'Must not be named constructor or __proto__' }));
    // (JSON.parse makes __proto__ an own key, as the body parser does; an object literal would not.)
    expect(await refusal(JSON.parse('{"name":"x","count":1,"__proto__":{"admin":true}}'))).toEqual(bad(JSON.parse('{"__proto__":"Must not be named constructor or __proto__"}')));
    expect(await refusal({ sort: { constructor: 'x' } }, EchoDto, 'query')).toEqual(bad({ 'sort.constructor': 'Must not be named constructor or __proto__' }));
  });

  it('text Postgres cannot store (NUL, a lone surrogate) → 400 naming the field, keys included (named without it)', async () => {
    expect(await refusal({ name: 'a\u0000b', count: 1 })).toEqual(bad({ name: UNSTORABLE_TEXT_MESSAGE }));
    expect(await refusal({ name: 'a', count: 1, meta: { ['k\ud800']: 1 } })).toEqual(bad({ 'meta.k': UNSTORABLE_TEXT_MESSAGE }));
  });

  it("a visitor's DTO gets a cleaned copy instead of a refusal", async () => {
    const dto = await pipe.transform({ name: 'a\u0000b\ud800', ['constructor']: 'x' }, { type: 'body', metatype: VisitorDto });
    expect({ ...(dto as VisitorDto) }).toEqual({ name: 'ab' });
  });
});
