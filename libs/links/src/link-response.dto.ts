import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';

const LINK_STATUSES = ['active', 'inactive', 'expired'];
const nullableString = { type: String, nullable: true } as const;
const deepLinkParameters: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
};

export class UtmParametersResponseDto {
  @ApiPropertyOptional() source?: string;
  @ApiPropertyOptional() medium?: string;
  @ApiPropertyOptional() campaign?: string;
  @ApiPropertyOptional() term?: string;
  @ApiPropertyOptional() content?: string;
}

export class SnakeUtmParametersResponseDto {
  @ApiPropertyOptional() utm_source?: string;
  @ApiPropertyOptional() utm_medium?: string;
  @ApiPropertyOptional() utm_campaign?: string;
  @ApiPropertyOptional() utm_term?: string;
  @ApiPropertyOptional() utm_content?: string;
}

export class TargetingRulesResponseDto {
  @ApiPropertyOptional({ type: [String] }) countries?: string[];
  @ApiPropertyOptional({ type: [String] }) devices?: string[];
  @ApiPropertyOptional({ type: [String] }) languages?: string[];
}

export class LinkVariantResponseDto {
  @ApiProperty() url!: string;
  @ApiProperty({ minimum: 1, maximum: 100 }) weight!: number;
}

export class RedirectRuleConditionsResponseDto {
  @ApiPropertyOptional({ type: [String] }) countries?: string[];
  @ApiPropertyOptional({ type: [String] }) languages?: string[];
  @ApiPropertyOptional({ type: [String], enum: ['ios', 'android', 'web'] }) devices?: string[];
  @ApiPropertyOptional({ type: [String] }) os?: string[];
  @ApiPropertyOptional({ type: [String] }) browsers?: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' } }) query?: Record<string, string>;
  @ApiPropertyOptional({ format: 'date-time' }) after?: string;
  @ApiPropertyOptional({ format: 'date-time' }) before?: string;
}

export class RedirectRuleResponseDto {
  @ApiProperty({ type: RedirectRuleConditionsResponseDto }) conditions!: RedirectRuleConditionsResponseDto;
  @ApiProperty() url!: string;
}

export class MigrationMetadataResponseDto {
  @ApiProperty() competitorPlatform!: string;
  @ApiProperty(nullableString) competitorId!: string | null;
}

/*
 * The link's response shapes: each class is both the TypeScript type the mapper
 * (link.mapper.ts) returns and the OpenAPI schema the controller declares, so a new
 * field is one line in each shape it appears in (the compiler checks the two agree).
 */

/** POST /api/links (and bulk-create items): the Cloud snake_case create shape. */
export class LinkCreateResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'go.acme.com', description: "The link's host: its branded domain, else the service host" }) domain!: string;
  @ApiProperty() short_code!: string;
  @ApiProperty({ example: 'https://dl.example/abc123' }) short_url!: string;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) project_id!: string | null;
  @ApiProperty({ format: 'uuid' }) template_id!: string;
  @ApiProperty() template_slug!: string;
  @ApiProperty() original_url!: string;
  @ApiProperty(nullableString) title!: string | null;
  @ApiProperty(nullableString) description!: string | null;
  @ApiProperty(nullableString) ios_url!: string | null;
  @ApiProperty(nullableString) android_url!: string | null;
  @ApiProperty(nullableString) web_fallback_url!: string | null;
  @ApiProperty(nullableString) app_scheme!: string | null;
  @ApiProperty(nullableString) ios_universal_link!: string | null;
  @ApiProperty(nullableString) android_app_link!: string | null;
  @ApiProperty(nullableString) deep_link_path!: string | null;
  @ApiProperty(deepLinkParameters) deep_link_parameters!: Record<string, string | number | boolean> | null;
  @ApiProperty() attribution_window_hours!: number;
  @ApiProperty({ type: SnakeUtmParametersResponseDto, nullable: true }) utm_parameters!: SnakeUtmParametersResponseDto | null;
  @ApiProperty({ type: TargetingRulesResponseDto, nullable: true }) targeting_rules!: TargetingRulesResponseDto | null;
  @ApiProperty(nullableString) og_title!: string | null;
  @ApiProperty(nullableString) og_description!: string | null;
  @ApiProperty(nullableString) og_image_url!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expires_at!: string | null;
  @ApiProperty({ type: MigrationMetadataResponseDto, nullable: true }) migration_metadata!: MigrationMetadataResponseDto | null;
  @ApiProperty({ description: 'True when visitors must enter a password' }) has_password!: boolean;
  @ApiProperty(nullableString) expired_url!: string | null;
  @ApiProperty({ type: Number, nullable: true }) max_clicks!: number | null;
  @ApiProperty({ type: [LinkVariantResponseDto], nullable: true }) variants!: LinkVariantResponseDto[] | null;
  @ApiProperty({ type: [RedirectRuleResponseDto], nullable: true }) redirect_rules!: RedirectRuleResponseDto[] | null;
  @ApiProperty() cloak!: boolean;
  @ApiProperty() public_stats!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** GET/PUT /api/links/:id (and bulk-update items): the Cloud camelCase read shape. */
export class LinkResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) userId!: string;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'uuid', type: String, nullable: true }) projectId!: string | null;
  @ApiProperty({ format: 'uuid' }) templateId!: string;
  @ApiProperty() templateSlug!: string;
  @ApiProperty({ example: 'go.acme.com', description: "The link's host: its branded domain, else the service host" }) domain!: string;
  @ApiProperty() shortCode!: string;
  @ApiProperty() shortUrl!: string;
  @ApiProperty() originalUrl!: string;
  @ApiProperty(nullableString) title!: string | null;
  @ApiProperty(nullableString) description!: string | null;
  @ApiProperty(nullableString) iosUrl!: string | null;
  @ApiProperty(nullableString) androidUrl!: string | null;
  @ApiProperty(nullableString) webFallbackUrl!: string | null;
  @ApiProperty(nullableString) appScheme!: string | null;
  @ApiProperty(nullableString) iosUniversalLink!: string | null;
  @ApiProperty(nullableString) androidAppLink!: string | null;
  @ApiProperty(nullableString) deepLinkPath!: string | null;
  @ApiProperty(deepLinkParameters) deepLinkParameters!: Record<string, string | number | boolean> | null;
  @ApiProperty({ type: UtmParametersResponseDto, nullable: true }) utmParameters!: UtmParametersResponseDto | null;
  @ApiProperty({ type: TargetingRulesResponseDto, nullable: true }) targetingRules!: TargetingRulesResponseDto | null;
  @ApiProperty() attributionWindowHours!: number;
  @ApiProperty(nullableString) ogTitle!: string | null;
  @ApiProperty(nullableString) ogDescription!: string | null;
  @ApiProperty(nullableString) ogImageUrl!: string | null;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ enum: LINK_STATUSES }) status!: 'active' | 'inactive' | 'expired';
  @ApiProperty() clickCount!: number;
  @ApiProperty({ type: MigrationMetadataResponseDto, nullable: true }) migrationMetadata!: MigrationMetadataResponseDto | null;
  @ApiProperty({ description: 'True when visitors must enter a password' }) hasPassword!: boolean;
  @ApiProperty(nullableString) expiredUrl!: string | null;
  @ApiProperty({ type: Number, nullable: true }) maxClicks!: number | null;
  @ApiProperty({ type: [LinkVariantResponseDto], nullable: true }) variants!: LinkVariantResponseDto[] | null;
  @ApiProperty({ type: [RedirectRuleResponseDto], nullable: true }) redirectRules!: RedirectRuleResponseDto[] | null;
  @ApiProperty() cloak!: boolean;
  @ApiProperty() publicStats!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** GET /api/links items. */
export class LinkListItemDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'go.acme.com', description: "The link's host: its branded domain, else the service host" }) domain!: string;
  @ApiProperty() shortCode!: string;
  @ApiProperty() shortUrl!: string;
  @ApiProperty(nullableString) title!: string | null;
  @ApiProperty() originalUrl!: string;
  @ApiProperty() clickCount!: number;
  @ApiProperty() templateSlug!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class BulkCreateLinksResponseDto {
  @ApiProperty() created!: number;
  @ApiProperty({ type: [LinkCreateResponseDto] }) links!: LinkCreateResponseDto[];
}

export class BulkUpdateLinksResponseDto {
  @ApiProperty() updated!: number;
  @ApiProperty({ type: [LinkResponseDto] }) links!: LinkResponseDto[];
}

export class BulkDeleteLinksResponseDto {
  @ApiProperty() deleted!: number;
}

export class TagCountDto {
  @ApiProperty({ example: 'Launch', description: 'The most used spelling of the tag (tags match case-insensitively)' }) name!: string;
  @ApiProperty({ description: 'Links of the organization carrying it' }) count!: number;
}

/** GET /api/tags. */
export class TagsResponseDto {
  @ApiProperty({ type: [TagCountDto], description: 'Most used first' }) tags!: TagCountDto[];
}
