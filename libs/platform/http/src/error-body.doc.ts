import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

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
