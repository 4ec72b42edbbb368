import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@dl/platform/config';
import { IntegrationNotFoundError } from './conversions.errors';
import { IntegrationListResponseDto, IntegrationResponseDto, PutShopifyIntegrationDto, PutStripeIntegrationDto } from './integrations.dto';
import { IntegrationProvider, IntegrationRecord, IntegrationsRepository } from './integrations.repository';

/** The settings routes of the Stripe and Shopify integrations (decisions §23). */
@Injectable()
export class IntegrationsService {
  constructor(
    private readonly repo: IntegrationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  endpointUrl(provider: IntegrationProvider, token: string): string {
    return `${this.config.API_PUBLIC_URL.replace(/\/+$/, '')}/integrations/${provider}/${token}`;
  }

  async list(organizationId: string): Promise<IntegrationListResponseDto> {
    return { integrations: (await this.repo.list(organizationId)).map((i) => this.toResponse(i)) };
  }

  async putStripe(organizationId: string, dto: PutStripeIntegrationDto): Promise<IntegrationResponseDto> {
    return this.toResponse(await this.repo.put(organizationId, 'stripe', dto.webhookSecret, null));
  }

  async putShopify(organizationId: string, dto: PutShopifyIntegrationDto): Promise<IntegrationResponseDto> {
    return this.toResponse(await this.repo.put(organizationId, 'shopify', dto.webhookSecret, dto.shopDomain.toLowerCase()));
  }

  /** Turns the integration off: its endpoint answers 404 from now on. */
  async delete(organizationId: string, provider: IntegrationProvider): Promise<{ success: true }> {
    if (!(await this.repo.delete(organizationId, provider))) throw new IntegrationNotFoundError();
    return { success: true };
  }

  private toResponse(i: IntegrationRecord): IntegrationResponseDto {
    return {
      provider: i.provider,
      endpointUrl: this.endpointUrl(i.provider, i.token),
      shopDomain: i.shopDomain,
      createdAt: i.createdAt.toISOString(),
      updatedAt: i.updatedAt.toISOString(),
    };
  }
}
