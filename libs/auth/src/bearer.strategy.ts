import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { MissingCredentialError } from './auth.errors';
import { Authenticator, CachedCredential } from './authenticator.service';
import { Principal } from './principal';

/** What a passport strategy is given for one attempt (see passport's middleware). */
interface Attempt {
  authenticate(req: { headers: { authorization?: string } }): void;
  success(principal: Principal): void;
  fail(): void;
  error(err: unknown): void;
}

/** An attempt that only captures the token passport-http-bearer extracts (its verify callback, replaced). */
interface TokenProbe extends Attempt {
  _verify(token: string, done: unknown): void;
}

/** Authorization header values whose bearer token this process remembers. */
const PARSED_HEADERS_MAX = 10_000;

/**
 * passport-http-bearer strategy `bearer` (registered with passport): takes the token from
 * `Authorization: Bearer <token>` and hands it to the Authenticator (dl_ key or session JWT).
 *
 * AuthGuard runs it through `authenticateHeader` rather than `passport.authenticate`: one
 * attempt object and three small callbacks per request instead of passport's middleware
 * chain, and the guard keeps each 401 message of the contract (a bare passport failure is
 * only a challenge string). The strategy only ever sees the header: `access_token` in the
 * query string or body is ignored, since tokens in URLs end up in logs.
 *
 * Hot path (`cachedPrincipal`): a header value seen before maps to its token without running
 * the strategy again (the strategy still parses each distinct header once), and a credential
 * whose in-process cache entry is fresh is answered synchronously. Everything else, including
 * every refusal, goes through `authenticateHeader`.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly authenticator: Authenticator) {
    super({ passReqToCallback: false });
  }

  validate(token: string): Promise<Principal> {
    return this.authenticator.authenticateToken(token);
  }

  /** Authorization header value → the credential it carries (only headers that authenticated). */
  private readonly parsed = new Map<string, CachedCredential>();

  /** The principal of an Authorization header when it is known in-process and still valid, else undefined. */
  cachedPrincipal(authorization: string): Principal | undefined {
    const credential = this.parsed.get(authorization);
    if (credential !== undefined) {
      if (credential.validUntilMs > Date.now()) return this.authenticator.cachedPrincipal(credential);
      this.parsed.delete(authorization);
      return undefined;
    }
    const token = this.tokenOf(authorization);
    const found = token === undefined ? undefined : this.authenticator.cachedCredential(token);
    const principal = found && this.authenticator.cachedPrincipal(found);
    if (found && principal) {
      if (this.parsed.size >= PARSED_HEADERS_MAX) this.parsed.clear();
      this.parsed.set(authorization, found);
    }
    return principal;
  }

  /** The bearer token passport-http-bearer finds in the header (its own parsing), or undefined. */
  private tokenOf(authorization: string): string | undefined {
    let token: string | undefined;
    const probe = Object.create(this) as TokenProbe;
    probe._verify = (t: string) => {
      token = t;
    };
    probe.fail = () => undefined;
    probe.error = () => undefined;
    probe.success = () => undefined;
    probe.authenticate({ headers: { authorization } });
    return token;
  }

  /**
   * The principal of an Authorization header, or the 401 of decisions §2.
   * @param missingMessage message when there is no Authorization header at all
   *   (`Authentication required` on link read/delete).
   */
  authenticateHeader(authorization: string | string[] | undefined, missingMessage?: string): Promise<Principal> {
    // Node keeps one Authorization header; anything but a string is not a bearer credential.
    if (authorization !== undefined && typeof authorization !== 'string') {
      return Promise.reject(new MissingCredentialError());
    }
    return new Promise<Principal>((resolve, reject) => {
      const attempt = Object.create(this) as Attempt;
      attempt.success = resolve;
      // No token, another scheme, or a malformed header (the strategy answers 400 or a challenge).
      attempt.fail = () => reject(new MissingCredentialError(authorization === undefined ? missingMessage : undefined));
      attempt.error = reject;
      attempt.authenticate({ headers: { authorization } });
    });
  }
}
