import { Resolver } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';

export const VERIFICATION_PREFIX = '_dl-verify';
export const VERIFICATION_VALUE_PREFIX = 'dl-verify=';

export const verificationName = (domain: string) => `${VERIFICATION_PREFIX}.${domain}`;
export const verificationValue = (token: string) => `${VERIFICATION_VALUE_PREFIX}${token}`;

export type VerificationResult = { ok: true } | { ok: false; error: string };

/** `DNS_SERVERS` (`ip:port, [v6]:port, ip`) as node's resolver takes them. */
export function parseDnsServers(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Looks up a domain's verification TXT record (`_dl-verify.<domain>` = `dl-verify=<token>`)
 * through the servers of DNS_SERVERS, or the system resolver when unset (decisions §15).
 * `checkTxt` is the same lookup for another record (SSO's `_dl-sso.<domain>` = `dl-sso=<token>`).
 */
@Injectable()
export class DnsVerifier {
  private readonly resolver: Resolver;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.resolver = new Resolver({ timeout: 2000, tries: 2 });
    const servers = parseDnsServers(config.DNS_SERVERS);
    if (servers.length) this.resolver.setServers(servers);
  }

  check(domain: string, token: string): Promise<VerificationResult> {
    return this.checkTxt(verificationName(domain), verificationValue(token));
  }

  /** Whether one of the TXT records at `name` is exactly `expected`. */
  async checkTxt(name: string, expected: string): Promise<VerificationResult> {
    let records: string[][];
    try {
      records = await this.resolver.resolveTxt(name);
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'EUNKNOWN';
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { ok: false, error: `No TXT record found at ${name}` };
      return { ok: false, error: `DNS lookup of ${name} failed (${code})` };
    }
    // A TXT record may come in several character-strings: they form one value.
    const values = records.map((chunks) => chunks.join(''));
    if (values.includes(expected)) return { ok: true };
    return {
      ok: false,
      error: values.length
        ? `The TXT record at ${name} does not contain ${expected}`
        : `No TXT record found at ${name}`,
    };
  }
}
