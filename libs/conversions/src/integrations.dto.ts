import { ApiProperty } from '@nestjs/swagger';
import { IsNonEmptyStringMax, IsValidWhen } from '@dl/platform/validation';

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/** PUT /api/integrations/stripe */
export class PutStripeIntegrationDto {
  @ApiProperty({ description: 'The signing secret of the Stripe webhook endpoint (`whsec_…`)', example: 'whsec_…' })
  @IsNonEmptyStringMax(200)
  @IsValidWhen((v) => typeof v === 'string' && /^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(v), 'Must be a Stripe webhook signing secret (whsec_…)')
  webhookSecret!: string;
}

/** PUT /api/integrations/shopify */
export class PutShopifyIntegrationDto {
  @ApiProperty({ example: 'acme.myshopify.com' })
  @IsValidWhen((v) => typeof v === 'string' && v.length <= 255 && SHOP_DOMAIN.test(v.toLowerCase()), 'Must be a <shop>.myshopify.com domain')
  shopDomain!: string;

  @ApiProperty({ description: "The app's client secret Shopify signs webhooks with" })
  @IsNonEmptyStringMax(200)
  webhookSecret!: string;
}

/** One integration as the settings routes show it (never its secret). */
export class IntegrationResponseDto {
  @ApiProperty({ enum: ['stripe', 'shopify'] }) provider!: string;
  @ApiProperty({ description: 'Where the sender posts its events', example: 'https://api.example.com/integrations/stripe/3f…' })
  endpointUrl!: string;
  @ApiProperty({ type: String, nullable: true }) shopDomain!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** GET /api/integrations */
export class IntegrationListResponseDto {
  @ApiProperty({ type: [IntegrationResponseDto] }) integrations!: IntegrationResponseDto[];
}

/** What an integration endpoint answers the sender (200 whether the event was applied or ignored). */
export class IntegrationEventResponseDto {
  @ApiProperty() received!: boolean;
  @ApiProperty({ description: 'False for an event ignored or applied before' }) applied!: boolean;
}
