import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ImportResult, LinksImportService } from '@dl/links';
import { ErrorBodyDoc } from '../openapi/error-body.doc';
import { readImportUpload } from './import-upload';
import { ImportResultDoc } from './migrations.response-doc';

@ApiTags('migrations')
@ApiUnauthorizedResponse({ type: ErrorBodyDoc, description: 'Missing or invalid credentials' })
@ApiForbiddenResponse({ type: ErrorBodyDoc, description: 'Role or plan does not allow this' })
@ApiTooManyRequestsResponse({ type: ErrorBodyDoc, description: 'Rate limit exceeded' })
@Controller('migrations')
export class MigrationsController {
  constructor(private readonly imports: LinksImportService) {}

  @Post('import')
  @HttpCode(200)
  @Auth(Permissions.linksWrite)
  @ApiConsumes('multipart/form-data')
  @ApiOperation({ summary: 'Import links from a CSV export of another platform (spec columns or a Branch export)' })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['file', 'platform', 'templateId'],
      properties: {
        file: { type: 'string', format: 'binary', description: 'CSV, at most 10 MB' },
        platform: { type: 'string', example: 'branch' },
        conflictStrategy: { type: 'string', enum: ['skip', 'overwrite', 'rename'], default: 'skip' },
        templateId: { type: 'string', format: 'uuid' },
        projectId: { type: 'string', format: 'uuid' },
      },
    },
  })
  @ApiOkResponse({ type: ImportResultDoc, description: 'Per-row outcome; failed rows are listed in errors' })
  @ApiBadRequestResponse({ type: ErrorBodyDoc, description: 'Missing file or field, bad CSV or unknown platform' })
  @ApiNotFoundResponse({ type: ErrorBodyDoc, description: 'Template or project not found' })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDoc, description: 'File larger than 10 MB' })
  async import(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<ImportResult> {
    const upload = await readImportUpload(request);
    return this.imports.importUpload(principal, upload.fields, upload.table);
  }
}
