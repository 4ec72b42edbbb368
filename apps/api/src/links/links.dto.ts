import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { CreateLinkDto, IsUuidField, UpdateLinkDto } from '@dl/links';

/** GET /api/links query. */
export class ListLinksQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Only this project's links" })
  @IsOptional()
  @IsUuidField()
  projectId?: string;
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
