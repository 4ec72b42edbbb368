import { DomainError } from '@dl/platform/http';

/** Password login and reset refused for an email whose domain an organization's SSO enforces (decisions §25). */
export class SsoRequiredError extends DomainError {
  constructor(domain: string) {
    super('SSO_REQUIRED', `Single sign-on required for ${domain}`);
  }
}

/**
 * What the password routes ask single sign-on (libs/sso implements it; where SSO is not wired,
 * as in the worker and the CLI, nothing is enforced): the email's domain when a verified SSO
 * domain with `enforce` covers it, else null.
 */
export abstract class SsoEnforcement {
  abstract enforcedDomain(email: string): Promise<string | null>;

  /** Throws SsoRequiredError when the email must sign in through its identity provider. */
  async assertPasswordAllowed(email: string): Promise<void> {
    const domain = await this.enforcedDomain(email);
    if (domain) throw new SsoRequiredError(domain);
  }
}
