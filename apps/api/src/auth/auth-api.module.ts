import { Module } from '@nestjs/common';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { SameOriginGuard } from './same-origin.guard';
import { SessionsController } from './sessions.controller';
import { TwoFactorController } from './two-factor.controller';

/** Signup, login, accept-invite, the account, sessions, two-factor authentication (services from the global AuthModule). */
@Module({
  controllers: [AuthController, AccountController, SessionsController, TwoFactorController],
  providers: [AuthIpLimitGuard, SameOriginGuard],
})
export class AuthApiModule {}
