/**
 * One decorator made of several, applied as if written one above the other in this order (the
 * last one first, as TypeScript applies a stack): class-validator then reports a value's failures,
 * and the OpenAPI document lists properties, in the same order as the stack would.
 */
export function stacked(...decorators: PropertyDecorator[]): PropertyDecorator {
  return (target, key) => {
    for (const decorator of [...decorators].reverse()) decorator(target, key);
  };
}
