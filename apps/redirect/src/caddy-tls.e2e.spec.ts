import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PeerCertificate, TLSSocket } from 'node:tls';
import { promisify } from 'node:util';
import { createApiApp } from '@dl/apps/api';
import { Tier } from '@dl/platform/db';
import { CADDY_BIN, clientAs, createTestEnv, PrivateCaddy, RunningApp, SeededOrganization, seedOrganization, startApp, startDnsServer, TestDnsServer, TestEnv, withoutClickId } from '@dl/testing';
import { createRedirectApp } from './app';

const run = promisify(execFile);

interface TlsAnswer {
  status: number;
  location: string | undefined;
  protocol: string | null;
  certificate: PeerCertificate;
}

/**
 * On-demand TLS for branded domains through Debian's Caddy (decisions §15): Caddy on loopback
 * with `tls internal { on_demand }` asks the redirect app's /tls/ask before issuing; a verified
 * domain is served over HTTPS (the certificate checked against Caddy's own root CA and the
 * name), an unverified or unknown one gets no certificate (the handshake fails). The
 * repository's deploy/Caddyfile is adapted by the same binary and checked for the same wiring.
 */
describe('Caddy on-demand TLS in front of the redirect app', () => {
  let env: TestEnv;
  let dns: TestDnsServer;
  let api: RunningApp;
  let edge: RunningApp;
  let caddy: PrivateCaddy;
  let a: SeededOrganization;
  let dir: string;
  const ids: Record<string, string> = {};

  const as = (org: SeededOrganization) => clientAs(api.url, org.owner.apiKey);

  /** GET https://<host>:<caddy>/<path> with the name resolved to 127.0.0.1 (SNI and Host = host). */
  function overTls(host: string, path: string, ca?: string, extraHeaders: Record<string, string> = {}): Promise<TlsAnswer> {
    return new Promise((resolve, reject) => {
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port: caddy.httpsPort,
          path,
          servername: host,
          headers: { host: `${host}:${caddy.httpsPort}`, ...extraHeaders },
          ...(ca ? { ca } : { rejectUnauthorized: false }),
          agent: false,
          timeout: 15_000,
        },
        (res) => {
          const socket = res.socket as TLSSocket;
          // A paid plan's web destinations end with dl_click (decisions §23).
          const answer = { status: res.statusCode ?? 0, location: withoutClickId(res.headers.location), protocol: socket.getProtocol(), certificate: socket.getPeerCertificate() };
          res.resume();
          res.on('end', () => resolve(answer));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dl-caddy-tls-'));
    dns = await startDnsServer();
    env = await createTestEnv({ RATE_LIMIT_ENABLED: 'false', DNS_SERVERS: dns.address, CLICK_FALLBACK_DIR: dir });
    a = await seedOrganization(env, { tier: Tier.PRO });
    api = await startApp(createApiApp, env.config);
    for (const name of ['go.a.test', 'later.a.test']) {
      const d = (await as(a).post('/api/domains', { domain: name }).expect(201)).body;
      ids[name] = d.id;
      dns.setTxt(d.verification.name, [d.verification.value]);
    }
    expect((await as(a).post(`/api/domains/${ids['go.a.test']}/verify`).expect(200)).body.status).toBe('verified');
    await as(a)
      .post('/api/links', { templateId: a.template.id, customCode: 'spring', domain: 'go.a.test', originalUrl: 'https://a.example/spring' })
      .expect(201);
    // As in docker-compose.yml: the edge trusts the forwarded headers of the proxy in front.
    edge = await startApp(createRedirectApp, env.withOverrides({ CLICK_FALLBACK_DIR: dir, TRUSTED_CLIENT_IP_HEADER: 'x-forwarded-for' }));
    caddy = await PrivateCaddy.start({ upstream: edge.url, ask: `${edge.url}/tls/ask` });
  }, 60_000);

  afterAll(async () => {
    await caddy?.stop();
    await Promise.all([edge?.close(), api?.close()]);
    await env?.teardown();
    await dns?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a verified domain is served over HTTPS: 302 to its link, certificate for that name from Caddy’s CA', async () => {
    const first = await overTls('go.a.test', '/spring'); // issues the certificate on this handshake
    expect([first.status, first.location]).toEqual([302, 'https://a.example/spring']);
    // Now verified properly: against Caddy's own root CA, with the host name checked.
    const checked = await overTls('go.a.test', '/spring', caddy.rootCertificate());
    expect([checked.status, checked.location, checked.protocol]).toEqual([302, 'https://a.example/spring', 'TLSv1.3']);
    expect(checked.certificate.subjectaltname).toBe('DNS:go.a.test');
    expect(checked.certificate.issuer.CN).toMatch(/^Caddy Local Authority/);
    // The edge's other answers pass through too: an unknown code on the domain is its 404 page.
    expect((await overTls('go.a.test', '/nothing', caddy.rootCertificate())).status).toBe(404);
  });

  it('a visitor’s own X-Forwarded-Host does not pick another host behind Caddy (Caddy sets it from the request)', async () => {
    for (const spoof of ['sho.rt', 'unknown.test', 'later.a.test']) {
      const answer = await overTls('go.a.test', '/spring', caddy.rootCertificate(), { 'x-forwarded-host': spoof, 'x-forwarded-for': '203.0.113.9' });
      expect([spoof, answer.status, answer.location]).toEqual([spoof, 302, 'https://a.example/spring']);
    }
  });

  it('an unverified or unknown domain gets no certificate: the TLS handshake fails', async () => {
    for (const host of ['later.a.test', 'unknown.test']) {
      const failure = await overTls(host, '/spring').then(
        (answer) => `answered ${answer.status}`,
        (err: NodeJS.ErrnoException) => `${err.code}: ${err.message}`,
      );
      expect(failure).toMatch(/^EPROTO: .*tlsv1 alert internal error/);
    }
    // Caddy asked the edge, was told no, and issued nothing for either name.
    expect(caddy.certificates()).toEqual(['go.a.test']);
  });

  it('a domain verified later gets its certificate on the next handshake (ask is consulted each time)', async () => {
    expect((await as(a).post(`/api/domains/${ids['later.a.test']}/verify`).expect(200)).body.status).toBe('verified');
    const deadline = Date.now() + 5_000; // the edge's domain table follows within 1 s; Caddy retries on a new handshake
    let answer: TlsAnswer | string = 'none';
    while (Date.now() < deadline) {
      answer = await overTls('later.a.test', '/', caddy.rootCertificate()).catch((err: Error) => err.message);
      if (typeof answer !== 'string') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(typeof answer === 'string' ? answer : [answer.status, answer.certificate.subjectaltname]).toEqual([404, 'DNS:later.a.test']);
    expect(caddy.certificates()).toEqual(['go.a.test', 'later.a.test']);
  });

  it('deploy/Caddyfile: on-demand TLS asks the redirect app, every other host is proxied to it', async () => {
    const { stdout } = await run(CADDY_BIN, ['adapt', '--config', join(__dirname, '../../../deploy/Caddyfile'), '--adapter', 'caddyfile'], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, SHORT_LINK_HOST: 'go.example.com', API_HOST: 'api.example.com', INGEST_HOST: 'ingest.example.com' },
    });
    const config = JSON.parse(stdout);
    expect(config.apps.tls.automation.on_demand).toEqual({ ask: 'http://redirect:3001/tls/ask' });
    expect(config.apps.tls.automation.policies).toEqual([{ subjects: ['ingest.example.com', 'api.example.com', 'go.example.com'] }, { on_demand: true }]);
    const server = config.apps.http.servers.srv0;
    expect(server.listen).toEqual([':443']);
    const routes = server.routes.map((r: { match?: { host: string[] }[]; handle: unknown[] }) => [r.match?.[0].host ?? '*', JSON.stringify(r.handle).match(/"dial":"([^"]+)"/)?.[1]]);
    expect(routes).toEqual([
      [['ingest.example.com'], 'ingest:3002'],
      [['api.example.com'], 'api:3000'],
      [['go.example.com'], 'redirect:3001'],
      ['*', 'redirect:3001'], // branded domains: last, after the named hosts
    ]);
  });
});
