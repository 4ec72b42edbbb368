import { ApiProperty } from '@nestjs/swagger';

/*
 * The project's response shapes: each class is both the TypeScript type the mapper
 * (project.mapper.ts) builds and the OpenAPI schema the controller declares; the mapper
 * file checks the two agree at compile time.
 */

/** POST/GET one/PUT /api/projects: the Cloud project shape (snake_case). */
export class ProjectResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ format: 'uuid' }) organization_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}

/** GET /api/projects items. */
export class ProjectListItemDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
