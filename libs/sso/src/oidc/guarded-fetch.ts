import { lookup } from 'node:dns/promises';
import { parseIp, refusalReason } from '@dl/webhooks';

/**
 * The fetch the OIDC client uses (discovery, JWKS, token, userinfo): an organization's Owner
 * names the issuer, so its host must resolve only to public unicast addresses (the webhooks'
 * rules: no loopback, private, link-local or metadata address), else the request is refused
 * before it is sent. Hosts of SSO_ALLOW_HTTP_HOSTS (`host:port`, local providers and tests) are
 * trusted as configured by the operator.
 */
export function guardedFetch(allowHosts: ReadonlySet<string>): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    if (!allowHosts.has(`${url.hostname.toLowerCase()}:${port}`)) {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const addresses = parseIp(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      const refused = addresses.length === 0 ? `${host} has no address` : addresses.map((a) => refusalReason(a, [])).find(Boolean);
      if (refused) throw new Error(`identity provider address refused: ${refused}`);
    }
    return fetch(input, init);
  };
}
