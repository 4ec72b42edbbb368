import { Inject, Injectable } from '@nestjs/common';
import { AuditAction, AuditSink } from '@dl/audit';
import { toString as qrToString } from 'qrcode';
import { Role } from '@dl/platform/db';
import { ValidationError } from '@dl/platform/http';
import { InvalidSessionError } from '../auth.errors';
import { CREDENTIAL_INVALIDATION, CredentialInvalidation } from '../credential-invalidation';
import { IssuedSession, SessionMeta, SessionsService } from '../sessions.service';
import { recordUserChange } from '../user-audit';
import { acceptTotp, hashRecoveryCode, newRecoveryCodes, newTotpSecret, normalizeRecoveryCode, otpauthUrl } from './totp';
import { passwordDigest, TwoFactorChallenges } from './two-factor-challenges';
import {
  InvalidTwoFactorChallengeError,
  InvalidTwoFactorCodeError,
  TwoFactorAlreadyEnabledError,
  TwoFactorNotEnabledError,
  TwoFactorNotStartedError,
} from './two-factor.errors';
import { TwoFactorRepository, TwoFactorState } from './two-factor.repository';
import { RecoveryCodesResponseDto, TwoFactorSetupResponseDto } from './two-factor-response.dto';

/** A second factor as the caller typed it: a TOTP code or a recovery code (exactly one). */
export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

/**
 * TOTP two-factor authentication (decisions §20): set-up, confirmation with recovery codes,
 * removal, and the two-step login. A TOTP step is accepted once per user (replay), a recovery
 * code once, a challenge once.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    private readonly repo: TwoFactorRepository,
    private readonly challenges: TwoFactorChallenges,
    private readonly sessions: SessionsService,
    @Inject(CREDENTIAL_INVALIDATION) private readonly invalidation: CredentialInvalidation,
    private readonly audit: AuditSink,
  ) {}

  /** A new secret, pending until confirmed; a set-up started again replaces it. */
  async setup(userId: string): Promise<TwoFactorSetupResponseDto> {
    const state = await this.state(userId);
    if (state.twoFactorEnabledAt) throw new TwoFactorAlreadyEnabledError();
    const secret = newTotpSecret();
    await this.repo.setPendingSecret(userId, secret);
    const url = otpauthUrl(secret, state.email);
    const qrSvg = await qrToString(url, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
    return { secret, otpauthUrl: url, qrSvg };
  }

  /** Confirms the pending secret with a code of it: 2FA is on, and the recovery codes are answered once. */
  async enable(userId: string, code: string): Promise<RecoveryCodesResponseDto> {
    const state = await this.state(userId);
    if (state.twoFactorEnabledAt) throw new TwoFactorAlreadyEnabledError();
    if (!state.totpPendingSecret) throw new TwoFactorNotStartedError();
    const step = acceptTotp(state.totpPendingSecret, code, Date.now(), null);
    if (step === null) throw new InvalidTwoFactorCodeError();
    const recoveryCodes = newRecoveryCodes();
    const hashes = recoveryCodes.map((c) => hashRecoveryCode(c));
    if (!(await this.repo.enable(userId, state.totpPendingSecret, step, hashes, new Date()))) throw new TwoFactorAlreadyEnabledError();
    await this.userChanged(userId, 'two_factor.enabled');
    return { recoveryCodes };
  }

  async disable(userId: string, factor: SecondFactor): Promise<void> {
    const state = await this.state(userId);
    if (!state.twoFactorEnabledAt) throw new TwoFactorNotEnabledError();
    if (!(await this.verify(state, factor))) throw new InvalidTwoFactorCodeError();
    await this.repo.disable(userId);
    await this.userChanged(userId, 'two_factor.disabled');
  }

  /** After the password: a challenge token when the user has 2FA on, otherwise null (the login goes on). */
  async challengeFor(userId: string, organizationId: string): Promise<string | null> {
    const state = await this.repo.state(userId);
    if (!state?.twoFactorEnabledAt) return null;
    return this.challenges.create({ userId, organizationId, password: passwordDigest(state.passwordHash) });
  }

  /** POST /auth/login/2fa: the challenge and a second factor → the session login would have answered. */
  async completeLogin(challengeToken: string, factor: SecondFactor, meta: SessionMeta = {}): Promise<IssuedSession> {
    assertOneFactor(factor);
    const pending = await this.challenges.find(challengeToken);
    if (!pending) throw new InvalidTwoFactorChallengeError();
    const state = await this.repo.state(pending.userId);
    // 2FA turned off, or the password changed, reset or claimed since the challenge: it is void.
    if (!state?.twoFactorEnabledAt || passwordDigest(state.passwordHash) !== pending.password) throw new InvalidTwoFactorChallengeError();
    if (!(await this.verify(state, factor))) {
      await this.challenges.failed(challengeToken);
      throw new InvalidTwoFactorCodeError();
    }
    if (!(await this.challenges.consume(challengeToken))) throw new InvalidTwoFactorChallengeError();
    const role = await this.repo.roleIn(pending.organizationId, pending.userId);
    if (!role) throw new InvalidTwoFactorChallengeError();
    return this.sessions.start(pending.userId, pending.organizationId, role as Role, meta);
  }

  /** Whether a user has 2FA on (an Owner requiring it of everyone must have it). */
  async isEnabled(userId: string): Promise<boolean> {
    return Boolean((await this.repo.state(userId))?.twoFactorEnabledAt);
  }

  private async state(userId: string): Promise<TwoFactorState> {
    const state = await this.repo.state(userId);
    // The session's user is gone: the session is no longer one.
    if (!state) throw new InvalidSessionError();
    return state;
  }

  /** A TOTP code of a step later than the last accepted one, or an unused recovery code; either is spent. */
  private async verify(state: TwoFactorState, factor: SecondFactor): Promise<boolean> {
    assertOneFactor(factor);
    if (!state.totpSecret) return false;
    if (factor.code !== undefined) {
      const step = acceptTotp(state.totpSecret, factor.code, Date.now(), state.totpLastStep);
      return step !== null && (await this.repo.advanceStep(state.id, step));
    }
    const normalized = normalizeRecoveryCode(factor.recoveryCode ?? '');
    const used = normalized !== null && (await this.repo.useRecoveryCode(state.id, hashRecoveryCode(normalized), new Date()));
    if (used) await this.recordForUser(state.id, 'two_factor.recovery_code_used');
    return used;
  }

  /** Cached principals carry "2FA missing" for organizations that require it. */
  private async userChanged(userId: string, action: AuditAction): Promise<void> {
    for (const organizationId of await this.recordForUser(userId, action)) await this.invalidation.organizationChanged(organizationId);
  }

  /** A change to the user's own account, in the audit log of each organization they belong to; answers those organizations. */
  private async recordForUser(userId: string, action: AuditAction): Promise<string[]> {
    const organizations = await this.repo.organizationsOf(userId);
    recordUserChange(this.audit, organizations, userId, action);
    return organizations;
  }
}

function assertOneFactor(factor: SecondFactor): void {
  const given = (factor.code !== undefined ? 1 : 0) + (factor.recoveryCode !== undefined ? 1 : 0);
  if (given === 1) return;
  const message = given === 0 ? 'Give a code or a recoveryCode' : 'Give either a code or a recoveryCode, not both';
  throw new ValidationError({ code: message });
}
