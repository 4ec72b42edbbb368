import { randomUUID } from 'node:crypto';
import { compileBodyValidator, renderError } from '@dl/platform/http';
import { SdkEventBatchDto, SdkEventDto, SdkInstallDto } from './ingest.dto';

const installId = randomUUID();
const bad = (validation: Record<string, string>) => ({ error: 'Bad Request', message: 'Validation error', statusCode: 400, validation });
const validators = { event: compileBodyValidator(SdkEventDto), events: compileBodyValidator(SdkEventBatchDto), install: compileBodyValidator(SdkInstallDto) };

function refusal(route: keyof typeof validators, body: unknown) {
  try {
    validators[route](body);
  } catch (err) {
    return renderError(err).body;
  }
  throw new Error('expected a refusal');
}

// The SDK bodies as their one route validates them (the DTO's rules compiled: compileBodyValidator),
// with the exact contract body (decisions §9, §14). Revenue and currency: event-rules.spec.ts;
// over HTTP, apps/ingest/src/sdk/sdk.e2e.spec.ts keeps one refusal and that nothing is stored.
describe('SDK bodies', () => {
  it.each([
    ['malformed installId', 'event', { installId: 'abc', eventName: 'x' }, { installId: 'Must be a valid UUID' }],
    ['event name over 100 characters', 'event', { installId, eventName: 'e'.repeat(101) }, { eventName: 'Must be 1-100 characters' }],
    ['properties over 32 KB', 'event', { installId, eventName: 'x', properties: { blob: 'x'.repeat(33 * 1024) } }, { properties: 'Must be at most 32 KB of JSON' }],
    ['properties not an object', 'event', { installId, eventName: 'x', properties: [1, 2] }, { properties: 'Must be an object' }],
    ['timestamp 10 minutes ahead', 'event', { installId, eventName: 'x', timestamp: new Date(Date.now() + 600_000).toISOString() }, { timestamp: 'Must be within the last 30 days and at most 5 minutes in the future' }],
    ['timestamp 31 days old', 'event', { installId, eventName: 'x', timestamp: new Date(Date.now() - 31 * 86400_000).toISOString() }, { timestamp: 'Must be within the last 30 days and at most 5 minutes in the future' }],
    ['timestamp not ISO 8601', 'event', { installId, eventName: 'x', timestamp: 'yesterday' }, { timestamp: 'Must be an ISO 8601 timestamp' }],
    ['unknown field', 'event', { installId, eventName: 'x', user: 'bob' }, { user: 'Unknown field' }],
    ['a batch with an array among its events', 'events', { events: [{ installId, eventName: 'x' }, []] }, { events: 'Must be an array of objects' }],
    ['a batch with a number among its events', 'events', { events: [{ installId, eventName: 'x' }, 3] }, { events: 'Must be an array of objects', 'events[1]': 'Must be an object' }],
    ['install without osVersion', 'install', { installId, platform: 'ios' }, { osVersion: 'Must be 1-32 characters' }],
    ['install on an unknown platform', 'install', { installId, platform: 'symbian', osVersion: '1' }, { platform: 'Must be one of: ios, android' }],
    ['install with a malformed clickId', 'install', { installId, platform: 'ios', osVersion: '1', clickId: 'nope' }, { clickId: 'Must be a valid UUID' }],
  ] as const)('%s → 400', (_name, route, body, validation) => {
    expect(refusal(route, body)).toEqual(bad(validation));
  });

  it('properties nested 20,000 deep → 400 naming where (an event and an event of a batch), never a stack overflow', () => {
    const nested = JSON.parse('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)) as unknown;
    expect(refusal('event', { installId, eventName: 'x', properties: nested })).toEqual(bad({ [`properties${'.a'.repeat(63)}`]: 'Must not be nested more than 64 levels deep' }));
    expect(refusal('events', { events: [{ installId, eventName: 'x', properties: nested }] })).toEqual(
      bad({ [`events[0].properties${'.a'.repeat(61)}`]: 'Must not be nested more than 64 levels deep' }),
    );
  });
});
