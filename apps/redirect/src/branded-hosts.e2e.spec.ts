import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { createApiApp } from '@dl/apps/api';
import { Tier } from '@dl/platform/db';
import { clientAs, createTestEnv, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv, withoutClickId } from '@dl/testing';
import { createRedirectApp } from './app';

/**
 * The edge by Host (decisions §15), end to end over HTTP: the api creates and verifies the
 * domains (DNS on loopback), two organizations own go.a.test and go.b.test each with a link
 * coded `spring`, two redirect instances answer (the second behind a trusted proxy).
 */
describe('redirect edge: branded hosts', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let api: RunningApp;
  let edge: RunningApp;
  let proxied: RunningApp;
  let a: SeededOrganization;
  let b: SeededOrganization;
  let dir: string;
  const domainIds: Record<string, string> = {};

  const as = (org: SeededOrganization) => clientAs(api.url, org.owner.apiKey);
  const visit = (host: string, path = '/spring', server = edge) => request(server.url).get(path).set('Host', host).redirects(0);
  const where = async (host: string, path = '/spring', server = edge) => {
    const res = await visit(host, path, server);
    // Paid plans: web destinations end with dl_click (decisions §23).
    return res.status === 302 ? withoutClickId(res.headers.location as string) : res.status;
  };

  async function waitFor(check: () => Promise<boolean>, ms = 1000): Promise<number> {
    const started = Date.now();
    while (!(await check())) {
      if (Date.now() - started > ms) throw new Error(`not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - started;
  }

  async function ownDomain(org: SeededOrganization, name: string, verify = true): Promise<string> {
    const d = (await as(org).post('/api/domains', { domain: name }).expect(201)).body;
    domainIds[name] = d.id;
    if (verify) {
      dns.setTxt(d.verification.name, [d.verification.value]);
      expect((await as(org).post(`/api/domains/${d.id}/verify`).expect(200)).body.status).toBe('verified');
    }
    return d.id;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dl-branded-'));
    dns = await startDnsServer();
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address, CLICK_FALLBACK_DIR: dir });
    [a, b] = await Promise.all([seedOrganization(env, { tier: Tier.PRO }), seedOrganization(env, { tier: Tier.PRO })]);
    api = await startApp(createApiApp, env.config);
    await ownDomain(a, 'go.a.test');
    await ownDomain(b, 'go.b.test');
    await ownDomain(a, 'pending.a.test', false);
    const link = (org: SeededOrganization, extra: object) => ({ templateId: org.template.id, customCode: 'spring', ...extra });
    await as(a).post('/api/links', link(a, { domain: 'go.a.test', originalUrl: 'https://a.example/spring' })).expect(201);
    await as(b).post('/api/links', link(b, { domain: 'go.b.test', originalUrl: 'https://b.example/spring' })).expect(201);
    await as(a).post('/api/links', link(a, { originalUrl: 'https://host.example/spring' })).expect(201);
    await ownDomain(a, 'bücher.a.test'); // stored as xn--bcher-kva.a.test
    await as(a).post('/api/links', link(a, { domain: 'xn--bcher-kva.a.test', originalUrl: 'https://idn.example/spring' })).expect(201);
    await as(a).post('/api/apps', { name: 'A iOS', platform: 'ios', bundleId: 'com.a.app', teamId: 'TEAMA12345' }).expect(201);
    await as(a)
      .post('/api/apps', { name: 'A Android', platform: 'android', packageName: 'com.a.app', sha256Fingerprints: [`${'AB:'.repeat(31)}AB`] })
      .expect(201);
    [edge, proxied] = await Promise.all([
      startApp(createRedirectApp, env.config),
      startApp(createRedirectApp, env.withOverrides({ CLICK_FALLBACK_DIR: dir, TRUSTED_CLIENT_IP_HEADER: 'x-real-ip' })),
    ]);
  });
  afterAll(async () => {
    await Promise.all([edge?.close(), proxied?.close(), api?.close()]);
    await env?.teardown();
    await dns?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the same code answers per host: each branded domain, and the service host', async () => {
    expect(await where('go.a.test')).toBe('https://a.example/spring');
    expect(await where('go.b.test')).toBe('https://b.example/spring');
    expect(await where('sho.rt')).toBe('https://host.example/spring');
    expect(await where(new URL(edge.url).host)).toBe('https://host.example/spring'); // 127.0.0.1:port outside production
    expect(await where('localhost:3001')).toBe('https://host.example/spring');
    // Lower-cased, port stripped (every form of a Host: libs/platform/config/src/service-hosts.spec.ts).
    expect(await where('GO.A.Test:8443')).toBe('https://a.example/spring');
  });

  it('a HEAD and a GET on a branded host go through the same decision (clicks recorded for GET)', async () => {
    const res = await request(edge.url).head('/spring').set('Host', 'go.b.test').redirects(0);
    expect(res.status).toBe(302);
  });

  it('unknown hosts, IP literals, a pending domain and a 10 KB Host get the 404 page', async () => {
    for (const host of ['unknown.test', '203.0.113.7', '[2001:db8::1]:80', 'pending.a.test', `${'h'.repeat(10240)}.test`]) {
      const res = await visit(host);
      expect([host.slice(0, 20), res.status, res.headers['content-type']]).toEqual([host.slice(0, 20), 404, 'text/html; charset=utf-8']);
    }
  });

  /** The status line of a hand-written request (headers a client library would not send). */
  async function raw(head: string, server = edge): Promise<string> {
    const port = Number(new URL(server.url).port);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(Buffer.from(`${head}Connection: close\r\n\r\n`, 'utf8')));
      let data = '';
      socket.on('data', (c) => (data += c.toString('latin1')));
      socket.on('end', () => resolve(data));
      socket.on('error', reject);
    });
    return reply.split('\r\n')[0];
  }

  it('a request without Host, or with two (RFC 9112 §3.2), is refused with 400, with no lookup', async () => {
    expect(await raw('GET /spring HTTP/1.1\r\n')).toBe('HTTP/1.1 400 Bad Request');
    for (const path of ['/spring', '/', '/.well-known/assetlinks.json', '/%73pring']) {
      expect(await raw(`GET ${path} HTTP/1.1\r\nHost: go.a.test\r\nhost: go.b.test\r\n`)).toBe('HTTP/1.1 400 Bad Request');
    }
    expect(await raw('GET /spring HTTP/1.1\r\nX-Forwarded-Host: go.b.test\r\nHOST: go.a.test\r\nHost: go.a.test\r\n', proxied)).toBe('HTTP/1.1 400 Bad Request');
  });

  it('an empty Host, raw UTF-8 and malformed hosts get the 404 page; HTTP/1.0 without Host is the same', async () => {
    expect(await raw('GET /spring HTTP/1.1\r\nHost: \r\n')).toBe('HTTP/1.1 404 Not Found');
    expect(await raw('GET /spring HTTP/1.1\r\nHost: bücher.a.test\r\n')).toBe('HTTP/1.1 404 Not Found'); // not punycode: no such host
    expect(await raw('GET /spring HTTP/1.0\r\n')).toBe('HTTP/1.1 404 Not Found');
    // One malformed Host over HTTP; every other (an empty port, lists, brackets, wildcards): service-hosts.spec.ts.
    const res = await visit('go.a.test@go.b.test');
    expect([res.status, res.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
  });

  it('an IDN domain is served on its punycode host (what browsers send), any case, with its certificate ask', async () => {
    expect(await where('xn--bcher-kva.a.test')).toBe('https://idn.example/spring');
    expect(await where('XN--BCHER-KVA.A.TEST:443')).toBe('https://idn.example/spring');
    expect((await request(edge.url).get('/tls/ask?domain=xn--bcher-kva.a.test')).status).toBe(200);
  });

  it('GET /tls/ask refuses odd queries with 404 and no error: arrays, ports, paths, NUL, IPs, the service host', async () => {
    const ask = async (query: string) => (await request(edge.url).get(`/tls/ask?${query}`)).status;
    for (const query of ['domain=go.a.test&domain=go.b.test', 'domain[]=go.a.test', 'domain=go.a.test%2Fx', 'domain=go.a.test%00', 'domain=127.0.0.1', 'domain=', 'domain=localhost', 'domain=%E2%80%AE']) {
      expect([query, await ask(query)]).toEqual([query, 404]);
    }
  });

  it('X-Forwarded-Host counts only when TRUSTED_CLIENT_IP_HEADER is set', async () => {
    const local = new URL(edge.url).host;
    const forwarded = (server: RunningApp) =>
      request(server.url).get('/spring').set('Host', new URL(server.url).host).set('X-Forwarded-Host', 'go.b.test').redirects(0);
    expect(withoutClickId((await forwarded(edge)).headers.location)).toBe('https://host.example/spring');
    expect(withoutClickId((await forwarded(proxied)).headers.location)).toBe('https://b.example/spring');
    expect(local).toMatch(/^127\.0\.0\.1:/);
  });

  it('unknown code → notFoundUrl or the 404 page; GET / → rootRedirectUrl or the 404 page; changes reach every instance within 1 s', async () => {
    expect(await where('go.a.test', '/nothing')).toBe(404);
    expect(await where('go.a.test', '/')).toBe(404);
    expect(await where('go.a.test', '/', proxied)).toBe(404);
    await as(a).patch(`/api/domains/${domainIds['go.a.test']}`, { notFoundUrl: 'https://a.example/404', rootRedirectUrl: 'https://a.example/' }).expect(200);
    for (const server of [edge, proxied]) {
      await waitFor(async () => (await where('go.a.test', '/', server)) === 'https://a.example/');
      await waitFor(async () => (await where('go.a.test', '/nothing', server)) === 'https://a.example/404');
    }
    expect(await where('go.a.test', '/bad%zzcode')).toBe(404); // malformed: the router's 404 page
    // The service host and the other domain are untouched.
    expect(await where('sho.rt', '/nothing')).toBe(404);
    expect(await where('sho.rt', '/')).toBe(404);
    expect(await where('go.b.test', '/nothing')).toBe(404);
  });

  it('.well-known files of a branded host come from its organization’s apps', async () => {
    const apple = await visit('go.a.test', '/.well-known/apple-app-site-association').expect(200);
    expect(JSON.parse(apple.text).applinks.details[0].appID).toBe('TEAMA12345.com.a.app');
    const android = await visit('go.a.test', '/.well-known/assetlinks.json').expect(200);
    expect(JSON.parse(android.text)[0].target).toMatchObject({ package_name: 'com.a.app', sha256_cert_fingerprints: [`${'AB:'.repeat(31)}AB`] });
    await visit('go.b.test', '/.well-known/apple-app-site-association').expect(404);
    await visit('unknown.test', '/.well-known/assetlinks.json').expect(404);
  });

  it('.well-known files follow an app registration and removal within 1 s (the domain table reloads on @domains)', async () => {
    const apple = async () => {
      const res = await visit('go.b.test', '/.well-known/apple-app-site-association');
      return res.status === 200 ? (JSON.parse(res.text).applinks.details as Array<{ appID: string }>).map((d) => d.appID) : res.status;
    };
    expect(await apple()).toBe(404);
    const app = (await as(b).post('/api/apps', { name: 'B iOS', platform: 'ios', bundleId: 'com.b.app', teamId: 'TEAMB12345' }).expect(201)).body;
    expect(await waitFor(async () => JSON.stringify(await apple()) === JSON.stringify(['TEAMB12345.com.b.app']))).toBeLessThan(1000);
    await request(api.url).delete(`/api/apps/${app.id}`).set('Authorization', `Bearer ${b.owner.apiKey}`).expect(200);
    expect(await waitFor(async () => (await apple()) === 404)).toBeLessThan(1000);
  });

  it('GET /tls/ask: 200 for verified or invalid-but-in-use domains, 404 otherwise', async () => {
    const ask = async (domain: string) => (await request(edge.url).get(`/tls/ask?domain=${encodeURIComponent(domain)}`)).status;
    expect(await ask('go.a.test')).toBe(200);
    expect(await ask('GO.B.TEST')).toBe(200);
    // Caddy asks over its own connection, with the Host of the ask URL (compose: redirect:3001),
    // which is no service host: the endpoint answers whatever the Host.
    for (const host of ['redirect:3001', 'unknown.test', 'go.b.test']) {
      expect((await request(edge.url).get('/tls/ask?domain=go.a.test').set('Host', host)).status).toBe(200);
    }
    expect(await ask('pending.a.test')).toBe(404);
    expect(await ask('unknown.test')).toBe(404);
    expect(await ask('sho.rt')).toBe(404);
    expect(await ask('x'.repeat(5000))).toBe(404);
    expect((await request(edge.url).get('/tls/ask')).status).toBe(404);
    // An invalid domain that links use keeps its certificate and its links.
    await env.prisma.domain.update({ where: { id: domainIds['go.b.test'] }, data: { status: 'invalid' } });
    await env.prisma.domain.update({ where: { id: domainIds['pending.a.test'] }, data: { status: 'invalid' } });
    await as(b).patch(`/api/domains/${domainIds['go.b.test']}`, { notFoundUrl: null }).expect(200); // announces the change
    await waitFor(async () => (await ask('pending.a.test')) === 404 && (await ask('go.b.test')) === 200);
    expect(await where('go.b.test')).toBe('https://b.example/spring');
  });
});
