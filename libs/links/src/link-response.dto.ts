import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { LINK_PUBLIC_FIELDS, linkField, LinkFieldKey, LinkFieldKeyOf, LinkFieldKind, LinkValues } from '@dl/link-fields';
import { definedOnly } from './field-decorators';
import { snake, SnakeKeys } from './snake-case';

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
  @ApiPropertyOptional({ description: "The source platform's click count, when its export had one" }) clicks?: number;
}

/** The screening of a link's destinations (decisions §22). */
export class LinkSafetyResponseDto {
  @ApiProperty({ enum: ['ok', 'suspicious', 'blocked'], description: 'suspicious: visitors see a warning page first; blocked: a 403 page' })
  status!: 'ok' | 'suspicious' | 'blocked';
  @ApiProperty({ ...nullableString, example: 'look-alike of paypal.com' }) reason!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When its destinations were last screened' }) checkedAt!: string | null;
}

/*
 * The link's response shapes: each class is both the TypeScript type the mapper
 * (link.mapper.ts) returns and the OpenAPI schema the controller declares. The link's own
 * properties are written here; its declared fields (@dl/link-fields) are added to both
 * shapes from their declaration (see the end of this file).
 */

/** The declared fields as reads show them (dates as ISO 8601 text; never the secret). */
type ShownValues = { [K in (typeof LINK_PUBLIC_FIELDS)[number]]: K extends LinkFieldKeyOf<'date'> ? string | null : LinkValues[K] };
/** The editable values as reads show them, the password only as `hasPassword`. */
export type LinkValuesResponse = ShownValues & { hasPassword: boolean };

/** POST /api/links (and bulk-create items): the Cloud snake_case create shape. */
export interface LinkCreateResponseDto extends SnakeKeys<Omit<ShownValues, 'utmParameters'>> {
  utm_parameters: SnakeUtmParametersResponseDto | null;
}
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
  @ApiProperty() is_active!: boolean;
  @ApiProperty({ type: MigrationMetadataResponseDto, nullable: true }) migration_metadata!: MigrationMetadataResponseDto | null;
  @ApiProperty({ description: 'True when visitors must enter a password' }) has_password!: boolean;
  @ApiProperty({ type: LinkSafetyResponseDto }) safety!: LinkSafetyResponseDto;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** GET/PUT /api/links/:id (and bulk-update items): the Cloud camelCase read shape. */
export interface LinkResponseDto extends ShownValues {}
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
  @ApiProperty() isActive!: boolean;
  @ApiProperty({ enum: LINK_STATUSES }) status!: 'active' | 'inactive' | 'expired';
  @ApiProperty() clickCount!: number;
  @ApiProperty({ type: MigrationMetadataResponseDto, nullable: true }) migrationMetadata!: MigrationMetadataResponseDto | null;
  @ApiProperty({ description: 'True when visitors must enter a password' }) hasPassword!: boolean;
  @ApiProperty({ type: LinkSafetyResponseDto }) safety!: LinkSafetyResponseDto;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** The json fields' read schemas (every other kind's follows from its declaration). */
const JSON_READS: { [K in LinkFieldKeyOf<'json'>]: ApiPropertyOptions } = {
  utmParameters: { type: UtmParametersResponseDto },
  targetingRules: { type: TargetingRulesResponseDto },
  deepLinkParameters,
  variants: { type: [LinkVariantResponseDto] },
  redirectRules: { type: [RedirectRuleResponseDto] },
};
/** The create shape's UTM keys are `utm_*`. */
const SNAKE_JSON_READS: Partial<typeof JSON_READS> = { utmParameters: { type: SnakeUtmParametersResponseDto } };

/** A declared field's read schema: null when it has no fallback. */
function readDoc(key: LinkFieldKey, snakeCase: boolean): ApiPropertyOptions {
  const field = linkField(key);
  const kinds: Record<Exclude<LinkFieldKind, 'json' | 'secret'>, ApiPropertyOptions> = {
    text: { type: String },
    url: { type: String },
    int: { type: Number },
    boolean: { type: Boolean },
    date: { type: String, format: 'date-time' },
    tags: { type: [String] },
  };
  const json = key as LinkFieldKeyOf<'json'>;
  const base = field.kind === 'json' ? ((snakeCase && SNAKE_JSON_READS[json]) || JSON_READS[json]) : kinds[field.kind as keyof typeof kinds];
  return definedOnly({ ...base, nullable: field.fallback === undefined || undefined, description: field.description });
}

for (const key of LINK_PUBLIC_FIELDS) {
  ApiProperty(readDoc(key, false))(LinkResponseDto.prototype, key);
  ApiProperty(readDoc(key, true))(LinkCreateResponseDto.prototype, snake(key));
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
  @ApiProperty({ type: LinkSafetyResponseDto, description: 'As on single reads (decisions §22)' }) safety!: LinkSafetyResponseDto;
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
