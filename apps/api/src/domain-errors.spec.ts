import * as analytics from '@dl/analytics';
import * as auth from '@dl/auth';
import * as clicks from '@dl/clicks';
import * as domains from '@dl/domains';
import * as eventAnalytics from '@dl/event-analytics';
import * as links from '@dl/links';
import { DomainError, ERROR_STATUS, renderError } from '@dl/platform/http';
import * as http from '@dl/platform/http';
import * as projects from '@dl/projects';
import * as redirect from '@dl/redirect';
import * as reports from '@dl/reports';
import * as sdk from '@dl/sdk';
import * as templates from '@dl/templates';
import * as webhooks from '@dl/webhooks';

type ErrorClass = new (...args: unknown[]) => DomainError;

/** Every DomainError class the libraries export, with the code an instance carries. */
function exportedErrors(): Array<{ name: string; code: string; error: DomainError }> {
  const modules = [analytics, auth, clicks, domains, eventAnalytics, http, links, projects, redirect, reports, sdk, templates, webhooks];
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
