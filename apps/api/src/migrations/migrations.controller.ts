import { Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ImportResultDto, LinksImportService } from '@dl/links';
import { ApiController, Endpoint } from '@dl/platform/http';
import { readImportUpload } from './import-upload';

@ApiController('migrations', 'migrations')
export class MigrationsController {
  constructor(private readonly imports: LinksImportService) {}

  @Endpoint.post('import', {
    access: Auth(Permissions.linksWrite),
    summary: 'Import links from a CSV export of another platform (Bitly, Rebrandly, Short.io, Dub, Shlink, Kutt, YOURLS, Firebase Dynamic Links, Branch, or the generic columns)',
    consumes: ['multipart/form-data'],
    body: {
      schema: {
        type: 'object',
        required: ['file', 'platform', 'templateId'],
        properties: {
          file: { type: 'string', format: 'binary', description: 'CSV, at most 10 MB' },
          platform: { type: 'string', example: 'auto', description: '`auto` recognizes the export from its header, or one of bitly, rebrandly, shortio, dub, shlink, kutt, yourls, firebase' },
          conflictStrategy: { type: 'string', enum: ['skip', 'overwrite', 'rename'], default: 'skip' },
          templateId: { type: 'string', format: 'uuid' },
          projectId: { type: 'string', format: 'uuid' },
          domain: { type: 'string', description: 'A verified domain of the organization: rows without a domain cell keep their codes there' },
        },
      },
    },
    response: ImportResultDto,
    success: { description: 'Per-row outcome; failed rows are listed in errors' },
    errors: {
      400: 'Missing file or field, bad CSV, or a file no known export matches (platform auto: validation.file names them)',
      404: 'Template or project not found',
      413: 'File larger than 10 MB',
    },
  })
  async import(@CurrentPrincipal() principal: Principal, @Req() request: FastifyRequest): Promise<ImportResultDto> {
    const upload = await readImportUpload(request);
    return this.imports.importUpload(principal, upload.fields, upload.table);
  }
}
