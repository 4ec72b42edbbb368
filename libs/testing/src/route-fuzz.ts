// A property-based fuzz of an app's whole route table over HTTP (docs/decisions/hostile-input.md,
// "The whole api, fuzzed"): arbitrary bodies, query strings and path parameters; every answer must be below 500
// and every 4xx the contract's error body. Used by the api's and the ingest app's hostile-input specs.
import fc from 'fast-check';
import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { rawRoutesOf } from '@dl/platform/http';

export interface FuzzRoute {
  method: string;
  url: string;
}

/** Records every route an app serves (call before it listens): its raw routes and Fastify's, without HEAD and OPTIONS. */
export function recordRoutes(app: NestFastifyApplication, into: FuzzRoute[]): NestFastifyApplication {
  // Routes served on the bare request event (takeRequests), then Fastify's as they register.
  for (const r of rawRoutesOf(app)) into.push({ method: r.method, url: r.url });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (r: { method: string | string[]; url: string }) => {
      for (const method of [r.method].flat()) if (method !== 'HEAD' && method !== 'OPTIONS') into.push({ method, url: r.url });
    });
  return app;
}

/** Keys of an error body (libs/platform/http/src/error-body.ts). */
const ERROR_KEYS = new Set(['error', 'message', 'statusCode', 'validation', 'retryAfter']);

/** A problem with one answer, or null when it keeps the contract. */
export function contractBreach(res: request.Response): string | null {
  if (res.status >= 500) return `answered ${res.status} ${JSON.stringify(res.body ?? res.text).slice(0, 300)}`;
  if (res.status < 400) return null;
  const b = res.body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || Array.isArray(b)) return `${res.status} without a JSON error body: ${String(res.text).slice(0, 200)}`;
  const extra = Object.keys(b).filter((k) => !ERROR_KEYS.has(k));
  if (extra.length) return `${res.status} error body has ${extra.join(', ')}`;
  if (typeof b.error !== 'string' || typeof b.message !== 'string' || b.statusCode !== res.status) return `${res.status} error body ${JSON.stringify(b)}`;
  if (b.validation !== undefined) {
    const v = b.validation as Record<string, unknown>;
    if (!v || typeof v !== 'object' || Array.isArray(v) || !Object.values(v).every((m) => typeof m === 'string')) return `validation ${JSON.stringify(v)}`;
  }
  return null;
}

/** Every property name and parameter name in an OpenAPI document. */
export function openApiNames(doc: unknown): { fields: string[]; params: string[] } {
  const fields = new Set<string>();
  const params = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.properties && typeof o.properties === 'object') Object.keys(o.properties).forEach((k) => fields.add(k));
    if (typeof o.name === 'string' && (o.in === 'query' || o.in === 'path')) params.add(o.name);
    Object.values(o).forEach(walk);
  };
  walk(doc);
  return { fields: [...fields].sort(), params: [...params].sort() };
}

/** Every path inside a JSON value (not the root). */
function jsonPaths(v: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (!v || typeof v !== 'object') return [];
  return Object.entries(v).flatMap(([k, child]) => {
    const p = [...at, Array.isArray(v) ? Number(k) : k];
    return [p, ...jsonPaths(child, p)];
  });
}

type Mutation = 'set' | 'delete' | 'add';

/** A copy of a JSON value with its `pick`-th path (modulo their number) set, removed, or given a sibling `key`. */
function mutateJson(base: unknown, pick: number, op: Mutation, value: unknown, key: string): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  const paths = jsonPaths(copy);
  if (!paths.length) return copy;
  const path = paths[pick % paths.length];
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (op === 'set') parent[last] = value;
  else if (op === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else if (Array.isArray(parent)) parent.push(value);
  // defineProperty: `__proto__` as an own key, as JSON.parse makes it.
  else Object.defineProperty(parent, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** Nesting deeper than any recursion in a request's path should follow. */
const DEEP_ARRAY = '['.repeat(50_000) + ']'.repeat(50_000);
const DEEP_OBJECT = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

/**
 * The hostile values, built on first use: `fc.string({ unit: 'binary' })` alone takes about a
 * second of CPU to make, and every test file that imports the kit would pay it.
 */
let hostile: { text: fc.Arbitrary<string>; json: fc.Arbitrary<unknown> } | undefined;
function hostileValues(): { text: fc.Arbitrary<string>; json: fc.Arbitrary<unknown> } {
  if (hostile) return hostile;
  const hostileText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 24 }).map((u) => String.fromCharCode(...u)),
    fc.constantFrom('', ' ', '\u0000', '\ud800', 'x\u0000y', '\r\n', '../..', '%00', '%E0%A4%A', '__proto__', 'constructor', 'null', 'true', '-1', '1e309', '0x10', 'NaN'),
    fc.constantFrom('https://example.com/x', 'javascript:alert(1)', 'http://127.0.0.1:9/', 'http://[::1]/', 'ftp://x', '//x', 'https://'),
    fc.constantFrom('2026-13-45T99:99:99Z', '2026-11-28', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '+275760-09-13T00:00:00.000Z'),
    fc.uuid(),
    fc.constant('a'.repeat(5000)),
  );
  const hostileNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, -1, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308, 0.5));
  const scalar = fc.oneof(hostileText, hostileNumber, fc.boolean(), fc.constant(null));
  /** Any JSON value made of hostile text and numbers, up to a few levels deep. */
  const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(fc.oneof(hostileText, fc.constantFrom('__proto__', 'constructor', 'prototype')), tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  hostile = { text: hostileText, json: hostileJson };
  return hostile;
}

type FuzzBody = { json: unknown } | { raw: string };

export interface FuzzOptions {
  /** Field names for made-up bodies and queries (openApiNames of the app's document, or a list). */
  fields: string[];
  /** Query parameter names. */
  queryNames: string[];
  /** Valid bodies by `METHOD /route`: the fuzz changes, removes or adds one of their fields at any depth. */
  bases?: Record<string, () => unknown>;
  /** Real values of path parameters by name (a resource the caller owns); others get made-up ones. */
  params?: (name: string, route: FuzzRoute) => string[];
  /** Headers of each request (its credential), given a coin the fuzz tosses. */
  headers: (coin: boolean) => Record<string, string>;
  runs: number;
  /** Routes (`METHOD /route`) whose success is an endless stream (Server-Sent Events): read up to the headers, then closed. */
  streams?: string[];
}

/** A parser that closes an event stream at its headers and reads any other answer whole (JSON when it is). */
function streamAwareParser(res: NodeJS.ReadableStream & { headers: Record<string, string | undefined>; destroy(): void }, done: (err: Error | null, body: unknown) => void): void {
  if (res.headers['content-type']?.startsWith('text/event-stream')) {
    res.destroy();
    return done(null, '');
  }
  let text = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => (text += chunk));
  res.on('end', () => {
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, text);
    }
  });
}

/** A body: a valid one with one field changed, made-up fields, any JSON, or raw text (malformed, deep). */
function bodyArbitrary(route: FuzzRoute, o: FuzzOptions): fc.Arbitrary<FuzzBody> {
  const { text: hostileText, json: hostileJson } = hostileValues();
  const base = o.bases?.[`${route.method} ${route.url}`];
  const field = fc.constantFrom(...o.fields);
  const raw = fc
    .oneof(fc.constantFrom('{', '{"a":', '[1,]', 'null', '"x"', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}', '\u0000', DEEP_ARRAY, DEEP_OBJECT), hostileText)
    .map((r): FuzzBody => ({ raw: r }));
  const made = [
    fc.dictionary(field, hostileJson, { maxKeys: 8 }).map((b): FuzzBody => ({ json: b })),
    hostileJson.map((b): FuzzBody => ({ json: b })),
    raw,
  ];
  if (!base) return fc.oneof(...made);
  const mutated = fc
    .tuple(fc.nat(), fc.constantFrom<Mutation>('set', 'set', 'delete', 'add'), hostileJson, fc.constantFrom(...o.fields, '__proto__', 'x'))
    .map(([pick, op, v, key]): FuzzBody => ({ json: mutateJson(base(), pick, op, v, key) }));
  return fc.oneof(mutated, ...made);
}

function queryArbitrary(o: FuzzOptions): fc.Arbitrary<string> {
  const hostileText = hostileValues().text;
  const names = fc.constantFrom(...o.queryNames, ...o.fields);
  return fc.oneof(
    fc.dictionary(names, fc.oneof(hostileText, fc.array(hostileText, { maxLength: 3 })), { maxKeys: 5 }).map((q) => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(q)) for (const one of [v].flat()) params.append(k, one);
      return params.toString();
    }),
    fc.constantFrom('%', '%zz', 'a=%E0%A4%A', 'limit=1&limit=2', '&&==&', 'cursor=' + '%FF'.repeat(20)),
  );
}

/** A route's path from its pattern (`:name`, `*`): real values, UUIDs, encoded hostile text, malformed escapes. */
function pathArbitrary(route: FuzzRoute, o: FuzzOptions): fc.Arbitrary<string> {
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)|\*/g)].map((m) => m[1] ?? '*');
  const hostileText = hostileValues().text;
  const param = (name: string) => {
    const real = o.params?.(name, route) ?? [];
    return fc.oneof(
      ...(real.length ? [fc.constantFrom(...real)] : []),
      fc.uuid(),
      // Lone surrogates made well-formed first: encodeURIComponent throws on them.
      hostileText.filter((v) => v.length > 0).map((v) => encodeURIComponent(Buffer.from(v).toString())),
      fc.constantFrom('%', '%zz', '%E0%A4%A', '%00', '..', '.', 'a'.repeat(257)),
    );
  };
  return fc.tuple(...names.map(param)).map((values) => {
    let i = 0;
    return route.url.replace(/:([A-Za-z0-9_]+)|\*/g, () => values[i++]);
  });
}

/**
 * Runs `o.runs` inputs against each route (deletes last: they remove what the other routes'
 * inputs name) and answers the breaches, each as sent. A breach ends its route's run (no
 * shrinking); a throw in the harness is a failure too.
 */
export async function fuzzRoutes(baseUrl: string, routes: FuzzRoute[], o: FuzzOptions): Promise<string[]> {
  const failures: string[] = [];
  const ordered = [...routes.filter((r) => r.method !== 'DELETE'), ...routes.filter((r) => r.method === 'DELETE')];
  for (const route of ordered) {
    const name = `${route.method} ${route.url}`;
    const property = fc.asyncProperty(pathArbitrary(route, o), queryArbitrary(o), bodyArbitrary(route, o), fc.boolean(), fc.boolean(), async (path, query, body, coin, asJson) => {
      const url = query ? `${path}?${query}` : path;
      let req = request(baseUrl)[route.method.toLowerCase() as 'post'](url).set(o.headers(coin));
      if (route.method !== 'GET' && route.method !== 'DELETE') {
        // JSON as text: superagent sends only objects and strings as they are.
        req = 'raw' in body ? req.set('Content-Type', asJson ? 'application/json' : 'text/plain').send(body.raw) : req.set('Content-Type', 'application/json').send(JSON.stringify(body.json));
      }
      if (o.streams?.includes(name)) req = req.buffer(true).parse(streamAwareParser as never);
      const res = await req.timeout(20_000);
      const problem = contractBreach(res);
      const sent = 'raw' in body ? JSON.stringify(body.raw).slice(0, 200) : JSON.stringify(body.json)?.slice(0, 300);
      if (problem) failures.push(`${name} → ${url.slice(0, 200)} ${sent}: ${problem}`);
      return problem === null;
    });
    await fc.assert(property, { numRuns: o.runs, endOnFailure: true }).catch((err: Error) => {
      if (!failures.some((f) => f.startsWith(`${name} `))) failures.push(`${name} threw ${err.message.replace(/\n\s*Hint:[^\n]*/, '').slice(0, 1500)}`);
    });
  }
  return failures;
}

/** Sets each field of each valid body to null, and removes it; answers the breaches. */
export async function nullEveryField(baseUrl: string, bases: Record<string, () => unknown>, pathOf: (pattern: string) => string, headers: Record<string, string>): Promise<string[]> {
  const failures: string[] = [];
  for (const [route, make] of Object.entries(bases)) {
    const [method, pattern] = route.split(' ');
    for (const [i, path] of jsonPaths(make()).entries()) {
      for (const op of ['set', 'delete'] as const) {
        const res = await request(baseUrl)[method.toLowerCase() as 'post'](pathOf(pattern)).set(headers).send(mutateJson(make(), i, op, null, '') as object);
        const problem = contractBreach(res);
        if (problem) failures.push(`${route} ${op} ${path.join('.')}: ${problem}`);
      }
    }
  }
  return failures;
}
