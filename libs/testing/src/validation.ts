import { Type } from '@nestjs/common';
import { createValidationPipe, ErrorBody, renderError } from '@dl/platform/http';

const pipe = createValidationPipe();

/** What the global validation pipe passes on for a body or query: the DTO instance. */
export function pipeAccepts<T>(metatype: Type<T>, value: unknown, type: 'body' | 'query' = 'body'): Promise<T> {
  return pipe.transform(value, { type, metatype }) as Promise<T>;
}

/** The contract's error body the global validation pipe answers a body or query with (fails when it accepts). */
export async function pipeRefusal(metatype: Type<unknown>, value: unknown, type: 'body' | 'query' = 'body'): Promise<ErrorBody> {
  try {
    await pipe.transform(value, { type, metatype });
  } catch (err) {
    return renderError(err).body;
  }
  throw new Error(`expected the validation pipe to refuse ${JSON.stringify(value)?.slice(0, 200)}`);
}
