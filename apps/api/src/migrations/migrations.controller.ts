import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ImportResult, LinksImportService } from '@dl/links';
import { readImportUpload } from './import-upload';

@ApiTags('migrations')
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
  @ApiOkResponse({ description: '{imported, skipped, failed, errors: [{row, message}]}' })
  async import(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<ImportResult> {
    const upload = await readImportUpload(request);
    return this.imports.importUpload(principal, upload.fields, upload.table);
  }
}
