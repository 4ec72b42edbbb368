import { Inject, Injectable } from '@nestjs/common';
import { AuditSink } from '@dl/audit';
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
    private readonly audit: AuditSink,
  ) {}

  endpointUrl(provider: IntegrationProvider, token: string): string {
    return `${this.config.API_PUBLIC_URL.replace(/\/+$/, '')}/integrations/${provider}/${token}`;
  }

  async list(organizationId: string): Promise<IntegrationListResponseDto> {
    return { integrations: (await this.repo.list(organizationId)).map((i) => this.toResponse(i)) };
  }

  async putStripe(organizationId: string, dto: PutStripeIntegrationDto): Promise<IntegrationResponseDto> {
    const row = await this.repo.put(organizationId, 'stripe', dto.webhookSecret, null);
    this.audit.record({ organizationId, action: 'integration.updated', targetId: 'stripe', changes: { ...dto } });
    return this.toResponse(row);
  }

  async putShopify(organizationId: string, dto: PutShopifyIntegrationDto): Promise<IntegrationResponseDto> {
    const row = await this.repo.put(organizationId, 'shopify', dto.webhookSecret, dto.shopDomain.toLowerCase());
    this.audit.record({ organizationId, action: 'integration.updated', targetId: 'shopify', changes: { ...dto } });
    return this.toResponse(row);
  }

  /** Turns the integration off: its endpoint answers 404 from now on. */
  async delete(organizationId: string, provider: IntegrationProvider): Promise<{ success: true }> {
    if (!(await this.repo.delete(organizationId, provider))) throw new IntegrationNotFoundError();
    this.audit.record({ organizationId, action: 'integration.deleted', targetId: provider });
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
