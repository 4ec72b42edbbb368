import { ApiProperty } from '@nestjs/swagger';

/** A template as every /api/templates route returns it (type of toTemplateResponse and OpenAPI schema). */
export class TemplateResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() slug!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Link field defaults' })
  defaults!: Record<string, unknown>;
  @ApiProperty() linkCount!: number;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}
