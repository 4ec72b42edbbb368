import { Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BillingModule } from '@dl/billing';
import { captureRawBody } from '../raw-body';
import { BillingController } from './billing.controller';
import { StripeWebhookController } from './stripe-webhook.controller';

export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook';

/** /api/billing* and Stripe's webhook (decisions §21). */
@Module({ imports: [BillingModule], controllers: [BillingController, StripeWebhookController] })
export class BillingApiModule implements OnModuleInit {
  constructor(@Optional() private readonly adapterHost?: HttpAdapterHost) {}

  onModuleInit(): void {
    captureRawBody(this.adapterHost, (path) => path === STRIPE_WEBHOOK_PATH);
  }
}
