import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiPropertyOptional, ApiResponse, getSchemaPath } from '@nestjs/swagger';

/** OpenAPI documentation of the contract's error body `{error, message, statusCode, validation?}`. */
export class ErrorBodyDoc {
  @ApiProperty({ example: 'Not Found', description: 'HTTP reason phrase' })
  error!: string;

  @ApiProperty({ example: 'Link not found', description: 'Contract message' })
  message!: string;

  @ApiProperty({ example: 404 })
  statusCode!: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Per-field validation messages (validation errors only)',
    example: { url: 'Invalid URL' },
  })
  validation?: Record<string, string>;

  @ApiPropertyOptional({ example: 12, description: 'Seconds to wait (429 only)' })
  retryAfter?: number;
}

/**
 * A documented failure of a route: the contract's error body, always as `application/json`. The
 * media type is named rather than left to the route's `produces`, which would file the error
 * under the success's type (a CSV export's 400 as `text/csv`); the body is JSON whatever the route serves.
 */
export function ApiErrorResponse(status: number, description: string) {
  return applyDecorators(
    ApiExtraModels(ErrorBodyDoc),
    ApiResponse({ status, description, content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDoc) } } } }),
  );
}
