import { NodeEnv } from './config';
import { hostCodeKey, normalizeHost, serviceHosts } from './service-hosts';

/** The edge's reading of a Host (decisions §15). Over HTTP, one of each: apps/redirect/src/branded-hosts.e2e.spec.ts. */
describe(normalizeHost.name, () => {
  it.each([
    ['GO.A.Test:8443', 'go.a.test'],
    ['go.a.test.', 'go.a.test'],
    ['go.a.test:', 'go.a.test'],
    [' go.a.test ', 'go.a.test'],
    ['XN--BCHER-KVA.A.TEST:443', 'xn--bcher-kva.a.test'],
    ['[2001:db8::1]:80', '[2001:db8::1]'],
    ['203.0.113.7:80', '203.0.113.7'],
  ])('%j → %j: lower-cased, port and trailing dot dropped', (host, name) => {
    expect(normalizeHost(host)).toBe(name);
  });

  // What is left is no domain name a domain can be created with, so no branded domain matches: the 404 page.
  it.each([
    ['go.a.test@go.b.test', 'go.a.test@go.b.test'],
    ['go.b.test, go.a.test', 'go.b.test, go.a.test'],
    ['[go.a.test]', '[go.a.test]'],
    ['go.a.test..', 'go.a.test.'],
    ['*.a.test', '*.a.test'],
    ['bücher.a.test', 'bücher.a.test'],
    [':8080', null],
    ['.', null],
    ['', null],
    ['[::1', null],
    [undefined, null],
    [`${'h'.repeat(10240)}.test`, null],
  ])('a malformed %j stays malformed (%j)', (host, name) => {
    expect(normalizeHost(host)).toBe(name);
  });
});

describe(serviceHosts.name, () => {
  it("the short-link base URL's host and SERVICE_HOSTS, normalised; loopback names outside production only", () => {
    const config = { SHORT_LINK_BASE_URL: 'https://Sho.rt', SERVICE_HOSTS: 'Links.Example.COM:443, ,edge.test.', NODE_ENV: NodeEnv.Production };
    expect([...serviceHosts(config)].sort()).toEqual(['edge.test', 'links.example.com', 'sho.rt']);
    expect([...serviceHosts({ ...config, NODE_ENV: NodeEnv.Development })].sort()).toEqual(['127.0.0.1', '[::1]', 'edge.test', 'links.example.com', 'localhost', 'sho.rt']);
  });

  it('a link key is its code on the service hosts, <domain>/<code> on a branded one', () => {
    expect([hostCodeKey('', 'spring'), hostCodeKey('go.a.test', 'spring')]).toEqual(['spring', 'go.a.test/spring']);
  });
});
