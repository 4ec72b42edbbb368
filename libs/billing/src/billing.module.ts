import { Module } from '@nestjs/common';
import { MailerService } from '@dl/reports';
import { BillingClock } from './billing-clock';
import { BillingGraceService } from './billing-grace.service';
import { BillingMailer } from './billing-mailer';
import { BillingRepository } from './billing.repository';
import { BillingService } from './billing.service';
import { billingProviders } from './stripe-client';
import { StripeWebhookService } from './stripe-webhook.service';

/** Billing with Stripe (decisions §21). Needs the global AuthModule (plans, credential invalidation). */
@Module({
  providers: [...billingProviders, BillingClock, BillingRepository, BillingService, StripeWebhookService, BillingGraceService, BillingMailer, MailerService],
  exports: [BillingService, StripeWebhookService, BillingGraceService, BillingClock],
})
export class BillingModule {}
