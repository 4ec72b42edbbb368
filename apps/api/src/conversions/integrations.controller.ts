import { Body, Headers, Param, Req } from '@nestjs/common';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import {
  IntegrationEndpointsService,
  IntegrationEventResponseDto,
  IntegrationListResponseDto,
  IntegrationResponseDto,
  IntegrationsService,
  PutShopifyIntegrationDto,
  PutStripeIntegrationDto,
} from '@dl/conversions';
import { ApiController, Endpoint, SuccessResponseDto } from '@dl/platform/http';
import { RawBodyRequest } from '../raw-body';

const GATE = 'Your role does not allow this action, or Conversions require a paid plan';

/** The Stripe and Shopify settings (decisions §23): Admin and above, paid plans. */
@ApiController('api/integrations', 'conversions', Auth(Permissions.integrationsManage))
export class IntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Endpoint.get({ summary: 'The organization’s integrations and their endpoint URLs', response: IntegrationListResponseDto, errors: { 403: GATE } })
  list(@CurrentPrincipal() p: Principal): Promise<IntegrationListResponseDto> {
    return this.integrations.list(p.organizationId);
  }

  @Endpoint.put('stripe', {
    summary: 'Turn the Stripe integration on (or change its signing secret)',
    description: 'Answers the endpoint URL to add in Stripe (Developers → Webhooks); it stays the same across updates.',
    response: IntegrationResponseDto,
    errors: { 400: 'Validation error', 403: GATE },
  })
  putStripe(@CurrentPrincipal() p: Principal, @Body() dto: PutStripeIntegrationDto): Promise<IntegrationResponseDto> {
    return this.integrations.putStripe(p.organizationId, dto);
  }

  @Endpoint.delete('stripe', { summary: 'Turn the Stripe integration off', response: SuccessResponseDto, errors: { 403: GATE, 404: 'Integration not found' } })
  deleteStripe(@CurrentPrincipal() p: Principal): Promise<SuccessResponseDto> {
    return this.integrations.delete(p.organizationId, 'stripe');
  }

  @Endpoint.put('shopify', {
    summary: 'Turn the Shopify integration on (or change its shop or secret)',
    response: IntegrationResponseDto,
    errors: { 400: 'Validation error', 403: GATE },
  })
  putShopify(@CurrentPrincipal() p: Principal, @Body() dto: PutShopifyIntegrationDto): Promise<IntegrationResponseDto> {
    return this.integrations.putShopify(p.organizationId, dto);
  }

  @Endpoint.delete('shopify', { summary: 'Turn the Shopify integration off', response: SuccessResponseDto, errors: { 403: GATE, 404: 'Integration not found' } })
  deleteShopify(@CurrentPrincipal() p: Principal): Promise<SuccessResponseDto> {
    return this.integrations.delete(p.organizationId, 'shopify');
  }
}

/** The endpoints Stripe and Shopify post to: no credential but the path's token and the body's signature. */
@ApiController('integrations', 'conversions')
export class IntegrationEndpointsController {
  constructor(private readonly endpoints: IntegrationEndpointsService) {}

  @Endpoint.post('stripe/:token', {
    summary: 'Stripe webhook endpoint of one organization',
    public: true,
    response: IntegrationEventResponseDto,
    errors: { 400: 'Invalid signature', 404: 'Integration not found', 503: 'Storage unavailable: Stripe retries' },
  })
  stripe(
    @Param('token') token: string,
    @Req() request: RawBodyRequest,
    @Headers('stripe-signature') signature: string | undefined,
  ): Promise<IntegrationEventResponseDto> {
    return this.endpoints.stripeEvent(token, request.rawBody ?? Buffer.alloc(0), signature);
  }

  @Endpoint.post('shopify/:token', {
    summary: 'Shopify webhook endpoint of one organization',
    public: true,
    response: IntegrationEventResponseDto,
    errors: { 401: 'Invalid signature', 404: 'Integration not found', 503: 'Storage unavailable: Shopify retries' },
  })
  shopify(
    @Param('token') token: string,
    @Req() request: RawBodyRequest,
    @Headers('x-shopify-hmac-sha256') hmac: string | undefined,
    @Headers('x-shopify-topic') topic: string | undefined,
    @Headers('x-shopify-webhook-id') webhookId: string | undefined,
    @Headers('x-shopify-shop-domain') shopDomain: string | undefined,
  ): Promise<IntegrationEventResponseDto> {
    return this.endpoints.shopifyEvent(token, request.rawBody ?? Buffer.alloc(0), { hmac, topic, webhookId, shopDomain });
  }
}
