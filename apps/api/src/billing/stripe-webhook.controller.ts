import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StripeWebhookService } from '@dl/billing';
import { RawBodyRequest } from '../raw-body';

/**
 * Stripe's webhook endpoint (decisions §21): no credential, the Stripe-Signature on the raw
 * body is the proof. Not in the OpenAPI document: only Stripe calls it.
 */
@ApiExcludeController()
@Controller('billing/stripe')
export class StripeWebhookController {
  constructor(private readonly webhooks: StripeWebhookService) {}

  @Post('webhook')
  @HttpCode(200)
  receive(@Req() req: RawBodyRequest, @Headers('stripe-signature') signature: string | undefined): Promise<{ received: true }> {
    return this.webhooks.receive(req.rawBody ?? undefined, signature).then(() => ({ received: true as const }));
  }
}
