import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DomainError, ERROR_STATUS, renderError } from '@dl/platform/http';

/** Every library (domain and platform) by its import name: a new library's errors are checked without editing this list. */
function libraries(): Array<Record<string, unknown>> {
  const root = join(__dirname, '../../../libs');
  const names = [
    ...readdirSync(root).filter((name) => !['testing', 'sdk-client', 'platform'].includes(name)).map((name) => `@dl/${name}`),
    ...readdirSync(join(root, 'platform')).map((name) => `@dl/platform/${name}`),
  ].filter((name) => existsSync(join(root, name.replace('@dl/', ''), 'src/index.ts')));
  return names.map((name) => require(name) as Record<string, unknown>);
}

type ErrorClass = new (...args: unknown[]) => DomainError;

/** Every DomainError class the libraries export, with the code an instance carries. */
function exportedErrors(): Array<{ name: string; code: string; error: DomainError }> {
  const modules = libraries();
  const classes = new Set<ErrorClass>();
  for (const mod of modules) {
    for (const value of Object.values(mod)) {
      if (typeof value === 'function' && value.prototype instanceof DomainError) classes.add(value as ErrorClass);
    }
  }
  return [...classes].map((Class) => {
    const error = new Class();
    return { name: Class.name, code: error.code, error };
  });
}

describe('domain errors of the libraries', () => {
  const errors = exportedErrors();

  it('one class per code, and every registered code thrown by a class (no duplicate, no dead code)', () => {
    const byCode = new Map<string, string[]>();
    for (const { name, code } of errors) byCode.set(code, [...(byCode.get(code) ?? []), name]);
    const duplicated = [...byCode].filter(([, names]) => names.length > 1);
    expect(duplicated).toEqual([]);
    expect([...byCode.keys()].sort()).toEqual(Object.keys(ERROR_STATUS).sort());
  });

  it('each renders with its registered status and its own message, never as a 500', () => {
    for (const { name, code, error } of errors) {
      const { body, unexpected } = renderError(error);
      expect({ name, statusCode: body.statusCode, message: body.message, unexpected }).toEqual({
        name,
        statusCode: ERROR_STATUS[code as keyof typeof ERROR_STATUS],
        message: error.message,
        unexpected: false,
      });
    }
  });
});
