import { Global, Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { AuditModule } from '@dl/audit';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';
import { AuthGuard } from './auth.guard';
import { Authenticator } from './authenticator.service';
import { BearerStrategy } from './bearer.strategy';
import { CachedCredentialInvalidation, CREDENTIAL_INVALIDATION } from './credential-invalidation';
import { CredentialsRepository } from './credentials.repository';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';
import { LoginThrottle } from './login-throttle';
import { AuthIpLimiter } from './auth-ip-limiter';
import { PasswordHasher } from './password';
import { MembersRepository } from './members.repository';
import { MembersService } from './members.service';
import { PlansService } from './plans';
import { PrincipalCache } from './principal-cache';
import { RateLimiter } from './rate-limiter.service';
import { SessionClock } from './session-clock';
import { jwtModuleOptions, SessionTokens } from './session-tokens';
import { MailThrottle } from './account-mailer';
import { EmailTokensRepository } from './email-tokens.repository';
import { EmailVerificationService } from './email-verification.service';
import { MeService } from './me.service';
import { PasswordResetService } from './password-reset.service';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { UsageRepository } from './usage.repository';
import { UsageService } from './usage.service';
import { TwoFactorChallenges } from './two-factor/two-factor-challenges';
import { TwoFactorRepository } from './two-factor/two-factor.repository';
import { TwoFactorService } from './two-factor/two-factor.service';

/**
 * Identity and tenancy, global so every controller's @Auth guard resolves:
 * authentication, rate limits, plans, and the account/key/member/usage services.
 * Sessions are signed by `@nestjs/jwt` (JwtModule: JWT_SECRET, HS256, JWT_TTL_SECONDS) and
 * bearer credentials read by passport-http-bearer (BearerStrategy).
 * Needs the platform's config, Prisma and Redis (PlatformModule).
 */
@Global()
@Module({
  // AuditModule is global: wherever identity is wired (api, CLI, service tests), so is the audit recorder.
  imports: [AuditModule, JwtModule.registerAsync({ inject: [APP_CONFIG], useFactory: (config: AppConfig) => jwtModuleOptions(config) })],
  providers: [
    CredentialsRepository,
    PrincipalCache,
    { provide: CREDENTIAL_INVALIDATION, useClass: CachedCredentialInvalidation },
    SessionTokens,
    SessionsRepository,
    SessionsService,
    SessionClock,
    MailThrottle,
    EmailTokensRepository,
    EmailVerificationService,
    PasswordResetService,
    MeService,
    Authenticator,
    BearerStrategy,
    PlansService,
    RateLimiter,
    AuthGuard,
    AccountsRepository,
    AccountsService,
    LoginThrottle,
    AuthIpLimiter,
    PasswordHasher,
    InvitationsRepository,
    InvitationsService,
    ApiKeysRepository,
    ApiKeysService,
    MembersRepository,
    MembersService,
    UsageRepository,
    UsageService,
    TwoFactorRepository,
    TwoFactorChallenges,
    TwoFactorService,
  ],
  exports: [
    AuthIpLimiter,
    Authenticator,
    BearerStrategy,
    AuthGuard,
    RateLimiter,
    PlansService,
    SessionTokens,
    SessionsService,
    EmailVerificationService,
    PasswordResetService,
    MeService,
    CREDENTIAL_INVALIDATION,
    AccountsService,
    ApiKeysService,
    MembersService,
    InvitationsService,
    PasswordHasher,
    UsageService,
    TwoFactorService,
  ],
})
export class AuthModule implements OnModuleInit {
  constructor(@Optional() private readonly adapterHost?: HttpAdapterHost) {}

  /**
   * Declares `request.principal` on Fastify's request up front, so setting it per
   * request keeps the request objects' shape (and Fastify's fast paths) stable.
   */
  onModuleInit(): void {
    const instance = this.adapterHost?.httpAdapter?.getInstance?.() as
      | { decorateRequest?: (name: string, value: null) => void; hasRequestDecorator?: (name: string) => boolean }
      | undefined;
    if (instance?.decorateRequest && !instance.hasRequestDecorator?.('principal')) instance.decorateRequest('principal', null);
  }
}
