import { randomUUID } from 'node:crypto';
import { Type } from '@nestjs/common';
import { createValidationPipe } from '@dl/platform/http';
import { fastEvent, fastEventBatch, fastInstall, fastOpen } from './ingest.fast-validation';
import { SdkEventBatchDto, SdkEventDto, SdkInstallDto, SdkOpenDto } from './ingest.dto';

const pipe = createValidationPipe();

/** What the global ValidationPipe makes of a body: the DTO as a plain object, or null when it answers 400. */
async function viaPipe(body: unknown, metatype: Type<unknown>): Promise<unknown> {
  try {
    return JSON.parse(JSON.stringify(await pipe.transform(body, { type: 'body', metatype })));
  } catch {
    return null;
  }
}

/** The fast check may refuse a body the pipe takes (it then goes to the pipe), never the reverse; when both take it, same DTO. */
async function agree(fast: (b: unknown) => unknown, metatype: Type<unknown>, body: unknown): Promise<'fast' | 'pipe' | 'refused'> {
  const slow = await viaPipe(body, metatype);
  const quick = fast(body);
  if (quick === null) return slow === null ? 'refused' : 'pipe';
  expect(slow).not.toBeNull();
  expect(JSON.parse(JSON.stringify(quick))).toEqual(slow);
  return 'fast';
}

const id = randomUUID();
const upper = randomUUID().toUpperCase();

describe('fast validation of SDK bodies (never laxer than the DTOs)', () => {
  it('install', async () => {
    const base = { installId: id, platform: 'ios', osVersion: '17.5' };
    const accepted: unknown[] = [
      base,
      { ...base, installId: upper, platform: 'Android' },
      { ...base, deviceModel: 'iPhone15,2', language: 'en-GB', appVersion: '3.2.1', clickId: upper },
      { ...base, deviceModel: '', language: '', appVersion: '' },
      { ...base, osVersion: 'x'.repeat(32), deviceModel: 'd'.repeat(100), language: 'l'.repeat(35), appVersion: 'a'.repeat(32) },
    ];
    for (const body of accepted) expect(await agree(fastInstall, SdkInstallDto, body)).toBe('fast');
    const refused: unknown[] = [
      null,
      [],
      'text',
      42,
      {},
      { ...base, installId: 'abc' },
      { ...base, installId: 7 },
      { ...base, installId: '6ba7b810-9dad-01d1-80b4-00c04fd430c8' },
      { ...base, platform: 'symbian' },
      { ...base, platform: 1 },
      { ...base, osVersion: '' },
      { ...base, osVersion: 'x'.repeat(33) },
      { ...base, osVersion: 17 },
      { ...base, deviceModel: 'd'.repeat(101) },
      { ...base, language: 'l'.repeat(36) },
      { ...base, appVersion: 'a'.repeat(33) },
      { ...base, appVersion: 3 },
      { ...base, clickId: 'nope' },
      { ...base, extra: true },
    ];
    for (const body of refused) expect(await agree(fastInstall, SdkInstallDto, body)).toBe('refused');
    // Left to the pipe (which takes them): null optional fields, surrogate pairs at a length bound.
    expect(await agree(fastInstall, SdkInstallDto, { ...base, deviceModel: null, clickId: null })).toBe('pipe');
    expect(await agree(fastInstall, SdkInstallDto, { ...base, osVersion: '😀'.repeat(20) })).toBe('pipe');
  });

  it('open', async () => {
    for (const body of [{ installId: upper }, { installId: id, url: 'myapp://x' }, { installId: id, url: 'u'.repeat(2048) }]) {
      expect(await agree(fastOpen, SdkOpenDto, body)).toBe('fast');
    }
    for (const body of [{ installId: 'x' }, { installId: id, url: 'u'.repeat(2049) }, { installId: id, url: 1 }, { installId: id, other: 1 }, null]) {
      expect(await agree(fastOpen, SdkOpenDto, body)).toBe('refused');
    }
  });

  it('event and batch', async () => {
    const base = { installId: upper, eventName: 'purchase' };
    const accepted: unknown[] = [
      base,
      { ...base, eventName: 'e'.repeat(100), eventId: upper },
      { ...base, properties: { sku: 'A1', nested: { list: [1, 'two', null, { deep: true }] }, n: 1.5 } },
      { ...base, properties: {} },
      { ...base, properties: { blob: 'x'.repeat(32 * 1024 - 20) } },
      { ...base, timestamp: new Date(Date.now() - 3600_000).toISOString() },
      { ...base, timestamp: '2026-01-01T00:00:00Z'.replace('2026-01-01', new Date().toISOString().slice(0, 10)) },
      { ...base, eventName: 'revenue', properties: { revenue: 'not checked here', currency: 'XYZ' } },
    ];
    for (const body of accepted) expect(await agree(fastEvent, SdkEventDto, body)).toBe('fast');
    const refused: unknown[] = [
      { ...base, eventName: '' },
      { ...base, eventName: 'e'.repeat(101) },
      { ...base, eventName: 3 },
      { ...base, properties: [1, 2] },
      { ...base, properties: 'x' },
      { ...base, properties: { blob: 'x'.repeat(33 * 1024) } },
      { ...base, properties: { blob: 'é'.repeat(16 * 1024 + 10) } },
      { ...base, timestamp: 'yesterday' },
      { ...base, timestamp: '2024-02-30T00:00:00Z' },
      { ...base, timestamp: new Date(Date.now() + 600_000).toISOString() },
      { ...base, timestamp: new Date(Date.now() - 31 * 86400_000).toISOString() },
      { ...base, eventId: 'e1' },
      { ...base, user: 'bob' },
    ];
    for (const body of refused) expect(await agree(fastEvent, SdkEventDto, body)).toBe('refused');
    expect(await agree(fastEvent, SdkEventDto, { ...base, properties: null, timestamp: null })).toBe('pipe');

    expect(await agree(fastEventBatch, SdkEventBatchDto, { events: [base, { ...base, properties: { a: 1 } }] })).toBe('fast');
    expect(await agree(fastEventBatch, SdkEventBatchDto, { events: Array.from({ length: 100 }, () => base) })).toBe('fast');
    for (const body of [{ events: [] }, { events: Array.from({ length: 101 }, () => base) }, { events: [base, { ...base, eventName: '' }] }, { events: base }, { events: [base], x: 1 }, [base]]) {
      expect(await agree(fastEventBatch, SdkEventBatchDto, body)).toBe('refused');
    }
  });
});
