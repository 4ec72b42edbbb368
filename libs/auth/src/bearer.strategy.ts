import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { MissingCredentialError } from './auth.errors';
import { Authenticator } from './authenticator.service';
import { Principal } from './principal';

/** What a passport strategy is given for one attempt (see passport's middleware). */
interface Attempt {
  authenticate(req: { headers: { authorization?: string } }): void;
  success(principal: Principal): void;
  fail(): void;
  error(err: unknown): void;
}

/**
 * passport-http-bearer strategy `bearer` (registered with passport): takes the token from
 * `Authorization: Bearer <token>` and hands it to the Authenticator (dl_ key or session JWT).
 *
 * AuthGuard runs it through `authenticateHeader` rather than `passport.authenticate`: one
 * attempt object and three small callbacks per request instead of passport's middleware
 * chain, and the guard keeps each 401 message of the contract (a bare passport failure is
 * only a challenge string). The strategy only ever sees the header: `access_token` in the
 * query string or body is ignored, since tokens in URLs end up in logs.
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly authenticator: Authenticator) {
    super({ passReqToCallback: false });
  }

  validate(token: string): Promise<Principal> {
    return this.authenticator.authenticateToken(token);
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
