import { Module } from '@nestjs/common';
import { AuthIpLimitGuard } from './auth-ip-limit.guard';
import { AuthController } from './auth.controller';
import { SameOriginGuard } from './same-origin.guard';
import { SessionsController } from './sessions.controller';

/** POST /auth/signup, POST /auth/login (services from the global AuthModule). */
@Module({ controllers: [AuthController, SessionsController], providers: [AuthIpLimitGuard, SameOriginGuard] })
export class AuthApiModule {}
