import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig } from '@dl/platform/config';
import { PlatformModule } from '@dl/platform/http';
import { QueueModule } from '@dl/platform/queue';
import { AuthModule } from '@dl/auth';
import { LinkAnalyticsApiModule } from './analytics/link-analytics-api.module';
import { AuthApiModule } from './auth/auth-api.module';
import { KeysApiModule } from './keys/keys-api.module';
import { MembersApiModule } from './members/members-api.module';
import { InvitationsApiModule } from './invitations/invitations-api.module';
import { UsageApiModule } from './usage/usage-api.module';
import { AppsApiModule } from './apps/apps-api.module';
import { PixelsApiModule } from './pixels/pixels-api.module';
import { EventAnalyticsApiModule } from './event-analytics/event-analytics-api.module';
import { ConversionsApiModule } from './conversions/conversions-api.module';
import { WebhooksApiModule } from './webhooks/webhooks-api.module';
import { ReportsApiModule } from './reports/reports-api.module';
import { LinksApiModule } from './links/links-api.module';
import { PublicStatsApiModule } from './public-stats/public-stats.controller';
import { TemplatesApiModule } from './templates/templates-api.module';
import { ProjectsApiModule } from './projects/projects-api.module';
import { OrganizationApiModule } from './organization/organization-api.module';
import { MigrationsApiModule } from './migrations/migrations-api.module';
import { DomainsApiModule } from './domains/domains-api.module';
import { BillingApiModule } from './billing/billing-api.module';
import { AbuseApiModule } from './safety/abuse.controller';
import { AuditApiModule } from './audit/audit-api.module';
import { ScimApiModule } from './scim/scim-api.module';
import { SsoApiModule } from './sso/sso-api.module';

/** The public REST API: controllers of the domain modules, wired here. */
@Module({})
export class ApiModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        PlatformModule.forRoot(config),
        QueueModule,
        AuthModule,
        AuthApiModule,
        AbuseApiModule,
        KeysApiModule,
        MembersApiModule,
        InvitationsApiModule,
        UsageApiModule,
        AppsApiModule,
        PixelsApiModule,
        EventAnalyticsApiModule,
        ConversionsApiModule,
        WebhooksApiModule,
        ReportsApiModule,
        LinkAnalyticsApiModule,
        LinksApiModule,
        PublicStatsApiModule,
        TemplatesApiModule,
        ProjectsApiModule,
        OrganizationApiModule,
        MigrationsApiModule,
        DomainsApiModule,
        BillingApiModule,
        AuditApiModule,
        ScimApiModule,
        SsoApiModule,
      ],
    };
  }
}
