import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { toInteger } from '@dl/analytics';
import { CreateLinkDto, CURSOR_MESSAGE, UpdateLinkDto } from '@dl/links';
import { IsStringArrayOf, IsStringMax, IsUuidField } from '@dl/platform/validation';

const LIMIT_FIELD = { message: 'Must be between 1 and 1000' };
const MAX_TAG_FILTERS = 20;

/** `true`/`false` as the query string spells them; anything else fails IsBoolean. */
const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);
/** `tag=a&tag=b` arrives as an array, a single `tag=a` as a string. */
const toList = ({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value);

/** GET /api/links query (decisions §16): every filter optional and combinable. */
export class ListLinksQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this project's links" })
  @IsOptional()
  @IsUuidField()
  projectId?: string;

  @ApiPropertyOptional({ maxLength: 200, description: 'Case-insensitive substring of the title, short code or destination' })
  @IsOptional()
  @IsStringMax(200)
  search?: string;

  @ApiPropertyOptional({
    type: [String],
    maxItems: MAX_TAG_FILTERS,
    description: 'Links with any of these tags (case-insensitive); repeat the parameter for several',
  })
  @IsOptional()
  @Transform(toList)
  @IsStringArrayOf((t) => t.trim().length > 0 && t.length <= 40, `Must be up to ${MAX_TAG_FILTERS} tags of 1-40 characters`, MAX_TAG_FILTERS)
  tag?: string[];

  @ApiPropertyOptional({
    maxLength: 300,
    description: "Links on this domain: a branded domain's name, or empty (or the service's host) for the service's own host",
  })
  @IsOptional()
  @IsStringMax(300)
  domain?: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Only active (true) or inactive (false) links' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'Must be true or false' })
  isActive?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Page size; the X-Next-Cursor answer header then names the next page. Without it, every match' })
  @IsOptional()
  @Transform(toInteger)
  @IsInt(LIMIT_FIELD)
  @Min(1, LIMIT_FIELD)
  @Max(1000, LIMIT_FIELD)
  limit?: number;

  @ApiPropertyOptional({ description: 'The X-Next-Cursor of the previous page (opaque)' })
  @IsOptional()
  @IsStringMax(200, { message: CURSOR_MESSAGE })
  cursor?: string;
}

/** OpenAPI shapes of the bulk bodies (validated item by item by the service). */
export class BulkCreateLinksBody {
  @ApiProperty({ type: [CreateLinkDto], maxItems: 100 })
  links: CreateLinkDto[];
}

export class BulkUpdateItem {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: UpdateLinkDto }) data: UpdateLinkDto;
}

export class BulkUpdateLinksBody {
  @ApiProperty({ type: [BulkUpdateItem], maxItems: 100 })
  updates: BulkUpdateItem[];
}

export class BulkDeleteLinksBody {
  @ApiProperty({ type: [String], format: 'uuid', maxItems: 100 })
  ids: string[];
}
