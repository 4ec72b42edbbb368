import { Injectable } from '@nestjs/common';
import { IntegrationNotFoundError } from './conversions.errors';
import { IntegrationEventResponseDto } from './integrations.dto';
import { IntegrationProvider, IntegrationRecord, IntegrationsRepository } from './integrations.repository';
import { parseShopifyJson, ShopifyEventsService } from './shopify-events.service';
import { StripeEventsService } from './stripe-events.service';

/**
 * The per-organization endpoints Stripe and Shopify post to (decisions §23): the token in the
 * path names the integration, the signature proves the sender, and an event id seen before is
 * answered without applying it again. The id is recorded only after the event was applied, and
 * applying is idempotent, so a sender's retry after a failure (5xx) is applied exactly once.
 */
@Injectable()
export class IntegrationEndpointsService {
  constructor(
    private readonly repo: IntegrationsRepository,
    private readonly stripe: StripeEventsService,
    private readonly shopify: ShopifyEventsService,
  ) {}

  async stripeEvent(token: string, raw: Buffer, signature: string | undefined): Promise<IntegrationEventResponseDto> {
    const integration = await this.integration('stripe', token);
    const event = this.stripe.verify(raw, signature, integration);
    return this.once(integration, event.id, () => this.stripe.apply(integration.organizationId, event));
  }

  async shopifyEvent(
    token: string,
    raw: Buffer,
    headers: { hmac?: string; topic?: string; webhookId?: string; shopDomain?: string },
  ): Promise<IntegrationEventResponseDto> {
    const integration = await this.integration('shopify', token);
    this.shopify.verify(raw, headers.hmac, integration);
    // A signed event of another shop (the same app installed twice) is not this organization's.
    if (headers.shopDomain && integration.shopDomain && headers.shopDomain.toLowerCase() !== integration.shopDomain) {
      return { received: true, applied: false };
    }
    let payload: unknown;
    try {
      payload = parseShopifyJson(raw.toString('utf8'));
    } catch {
      return { received: true, applied: false };
    }
    const eventId = headers.webhookId?.slice(0, 200) || null;
    const apply = () => this.shopify.apply(integration.organizationId, headers.topic, payload);
    if (!eventId) return { received: true, applied: await apply() };
    return this.once(integration, eventId, apply);
  }

  private async integration(provider: IntegrationProvider, token: string): Promise<IntegrationRecord> {
    const found = await this.repo.findByToken(provider, token);
    if (!found) throw new IntegrationNotFoundError();
    return found;
  }

  private async once(integration: IntegrationRecord, eventId: string, apply: () => Promise<boolean>): Promise<IntegrationEventResponseDto> {
    const { organizationId, provider } = integration;
    if (await this.repo.applied(organizationId, provider, eventId)) return { received: true, applied: false };
    const applied = await apply();
    await this.repo.markApplied(organizationId, provider, eventId);
    return { received: true, applied };
  }
}
