import { Module } from '@nestjs/common';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { AuthController } from './auth.controller';
import { SameOriginGuard } from './same-origin.guard';
import { SessionsController } from './sessions.controller';
import { TwoFactorController } from './two-factor.controller';

/** POST /auth/signup, POST /auth/login, sessions, two-factor authentication (services from the global AuthModule). */
@Module({ controllers: [AuthController, SessionsController, TwoFactorController], providers: [AuthIpLimitGuard, SameOriginGuard] })
export class AuthApiModule {}
