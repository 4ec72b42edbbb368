/** `camelCase` → `snake_case`, as a type. */
export type Snake<S extends string> = S extends `${infer H}${infer T}`
  ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}`
  : S;

/** An object type with its keys in snake_case. */
export type SnakeKeys<T> = { [K in keyof T & string as Snake<K>]: T[K] };

/** `camelCase` → `snake_case`. */
export const snake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
