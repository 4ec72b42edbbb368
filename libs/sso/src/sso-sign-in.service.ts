import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
import { IssuedSession, normalizeEmail, PasswordHasher, SessionMeta, SessionsService, SsoEnforcement } from '@dl/auth';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { Role } from '@dl/platform/db';
import { ValidationError } from '@dl/platform/http';
import { OidcProvider } from './oidc/oidc.provider';
import { SsoTypeName } from './sso.dto';
import { SsoEmailNotAllowedError, SsoInvalidStateError, SsoNotAvailableError, SsoNotConfiguredError, SsoProviderUnavailableError } from './sso.errors';
import { SAML_SSO_PROVIDER, SsoProvider } from './sso-provider';
import { SsoRepository } from './sso.repository';
import { SsoStateStore } from './sso-state';

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,253}$/;
export const EMAIL_MESSAGE = 'Must be a valid email address';
const ENFORCEMENT_CACHE_MS = 10_000;
const ENFORCEMENT_CACHE_MAX = 10_000;

/** The callback path of each protocol, under the api's public URL. */
export const SSO_CALLBACK_PATHS: Record<SsoTypeName, string> = { oidc: '/auth/sso/oidc/callback', saml: '/auth/sso/saml/acs' };

/** The domain of an email (lower-cased), or null. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  return at > 0 && at < email.length - 1 ? email.slice(at + 1).toLowerCase() : null;
}

/**
 * Signing in through an organization's identity provider (decisions §25), whatever the protocol:
 * start finds the organization of the email's verified domain and sends the browser to its
 * provider; finish takes the state back (once), lets the provider check the answer, and signs the
 * person in, creating the account and the membership (with `defaultRole`) on first use. Also the
 * enforcement the password routes ask (SsoEnforcement).
 */
@Injectable()
export class SsoSignInService extends SsoEnforcement {
  private readonly providers: Partial<Record<SsoTypeName, SsoProvider>>;
  private readonly baseUrl: string;
  private readonly enforced = new Map<string, { at: number; enforced: boolean }>();

  constructor(
    private readonly repo: SsoRepository,
    private readonly states: SsoStateStore,
    private readonly sessions: SessionsService,
    private readonly passwords: PasswordHasher,
    private readonly audit: AuditSink,
    oidc: OidcProvider,
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() @Inject(SAML_SSO_PROVIDER) saml?: SsoProvider,
  ) {
    super();
    this.providers = { oidc, saml };
    this.baseUrl = config.API_PUBLIC_URL.replace(/\/+$/, '');
  }

  /**
   * The password routes' question, answered from a per-instance cache of 10 s per domain (the
   * reset request answers before any account lookup, so its timing must not depend on the
   * database); a change made on this instance clears it at once, other instances within 10 s.
   */
  async enforcedDomain(email: string): Promise<string | null> {
    const domain = emailDomain(normalizeEmail(email));
    if (!domain) return null;
    const cached = this.enforced.get(domain);
    if (cached && Date.now() - cached.at < ENFORCEMENT_CACHE_MS) return cached.enforced ? domain : null;
    const found = await this.repo.findByVerifiedDomain(domain);
    if (this.enforced.size >= ENFORCEMENT_CACHE_MAX) this.enforced.clear();
    this.enforced.set(domain, { at: Date.now(), enforced: found?.connection.enforce === true });
    return found?.connection.enforce ? domain : null;
  }

  /** The setting changed (PUT, verify): the enforcement cache starts over. */
  policyChanged(): void {
    this.enforced.clear();
  }

  /** GET /auth/sso/start: the identity provider's URL to redirect to. */
  async start(rawEmail: unknown): Promise<string> {
    const email = typeof rawEmail === 'string' ? normalizeEmail(rawEmail) : '';
    const domain = EMAIL.test(email) ? emailDomain(email) : null;
    if (!domain) throw new ValidationError({ email: EMAIL_MESSAGE });
    const found = await this.repo.findByVerifiedDomain(domain);
    if (!found) throw new SsoNotAvailableError(domain);
    const { connection } = found;
    const provider = this.provider(connection.type);
    const state = this.states.newState();
    const started = await provider.start(connection, { state, email, callbackUrl: this.callbackUrl(connection.type) });
    await this.states.save(state, { organizationId: connection.organizationId, type: connection.type, email, data: started.data });
    return started.url;
  }

  /**
   * GET /auth/sso/saml/metadata: our SAML service provider metadata. The entity id and ACS are one
   * for every organization, so no key is needed; a `domain`, when given, must be a verified domain
   * of a SAML connection (otherwise SsoNotConfiguredError), so an administrator's copy proves the setup.
   */
  async samlMetadata(rawDomain: unknown): Promise<string> {
    if (rawDomain !== undefined) {
      const domain = typeof rawDomain === 'string' ? rawDomain.trim().toLowerCase() : '';
      const found = domain ? await this.repo.findByVerifiedDomain(domain) : null;
      if (found?.connection.type !== 'saml') throw new SsoNotConfiguredError();
    }
    const saml = this.provider('saml');
    if (!saml.metadata) throw new SsoProviderUnavailableError('SAML sign-in is not available');
    return saml.metadata(this.callbackUrl('saml'));
  }

  /**
   * A callback (`params`: its query or form fields; `state`: OIDC `state`, SAML `RelayState`):
   * the signed-in session, or SsoInvalidStateError (unknown, used, expired state), SsoFailedError
   * (the provider's answer refused), SsoEmailNotAllowedError.
   */
  async finish(type: SsoTypeName, state: unknown, params: Record<string, string>, meta: SessionMeta = {}): Promise<IssuedSession> {
    const pending = await this.states.take(state);
    if (!pending || pending.type !== type) throw new SsoInvalidStateError();
    const connection = await this.repo.findConnection(pending.organizationId);
    if (!connection || connection.type !== type) throw new SsoNotConfiguredError();
    const identity = await this.provider(type).finish(connection, { params, data: pending.data, state: state as string, callbackUrl: this.callbackUrl(type) });
    const email = normalizeEmail(identity.email);
    const domain = EMAIL.test(email) ? emailDomain(email) : null;
    if (!identity.emailVerified) throw new SsoEmailNotAllowedError('The identity provider has not verified the email address');
    if (!domain || !(await this.repo.isVerifiedDomainOf(connection.organizationId, domain))) {
      throw new SsoEmailNotAllowedError("The identity provider's email is not of a verified domain of this organization");
    }
    const { userId, role, provisioned } = await this.provision(connection.organizationId, email, identity.name, connection.defaultRole);
    if (provisioned) {
      this.audit.record({ organizationId: connection.organizationId, action: 'sso.user_provisioned', targetId: userId, changes: { email, role, via: type }, actor: { type: 'user', id: userId } });
    }
    this.audit.record({ organizationId: connection.organizationId, action: 'sso.signed_in', targetId: userId, changes: { via: type }, actor: { type: 'user', id: userId } });
    return this.sessions.start(userId, connection.organizationId, role, meta);
  }

  private provider(type: SsoTypeName): SsoProvider {
    const provider = this.providers[type];
    if (!provider) throw new SsoProviderUnavailableError(`${type.toUpperCase()} sign-in is not available`);
    return provider;
  }

  private callbackUrl(type: SsoTypeName): string {
    return `${this.baseUrl}${SSO_CALLBACK_PATHS[type]}`;
  }

  /**
   * Just in time: the account of the email (created verified, with an unusable random password,
   * when missing; an existing one is marked verified since its domain's owner vouched for it) and
   * its membership (created with the default role when missing). `provisioned` when either was made.
   */
  private async provision(organizationId: string, email: string, name: string | null, defaultRole: Role): Promise<{ userId: string; role: Role; provisioned: boolean }> {
    const passwordHash = await this.passwords.hash(randomBytes(32).toString('base64url'));
    const attempt = () =>
      this.repo.transaction(async (tx) => {
        const now = new Date();
        await this.repo.lockOrganization(tx, organizationId);
        const existing = await this.repo.findUserByEmail(tx, email);
        const user = existing ?? (await this.repo.createUser(tx, { email, name: name ?? email.slice(0, email.indexOf('@')), passwordHash, at: now }));
        if (existing) await this.repo.markEmailVerified(tx, existing.id, now);
        const membership = await this.repo.findMembership(tx, organizationId, user.id);
        if (membership) return { userId: user.id, role: membership.role, provisioned: !existing };
        await this.repo.addMember(tx, organizationId, user.id, defaultRole);
        return { userId: user.id, role: defaultRole, provisioned: true };
      });
    try {
      return await attempt();
    } catch (err) {
      // Two first sign-ins of one email at once: the loser finds the winner's account.
      if ((err as { code?: string }).code === 'P2002') return attempt();
      throw err;
    }
  }
}
