import { Module } from '@nestjs/common';
import { SsoModule } from '@dl/sso';
import { AuthIpLimitGuard } from '../auth/auth-ip-limit.guard';
import { SsoAuthController } from './sso-auth.controller';
import { SsoSettingsController } from './sso-settings.controller';

/** Single sign-on: the settings (/api/organization/sso) and the browser routes (/auth/sso). */
@Module({ imports: [SsoModule], controllers: [SsoSettingsController, SsoAuthController], providers: [AuthIpLimitGuard] })
export class SsoApiModule {}
