import { Module, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { BillingModule } from '@dl/billing';
import { BillingController } from './billing.controller';
import { captureRawBody } from './raw-body';
import { StripeWebhookController } from './stripe-webhook.controller';

export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook';

/** /api/billing* and Stripe's webhook (decisions §21). */
@Module({ imports: [BillingModule], controllers: [BillingController, StripeWebhookController] })
export class BillingApiModule implements OnModuleInit {
  constructor(@Optional() private readonly adapterHost?: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost?.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify?.addHook) captureRawBody(fastify, [STRIPE_WEBHOOK_PATH]);
  }
}
