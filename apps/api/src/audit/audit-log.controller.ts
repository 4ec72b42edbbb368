import { Header, Query, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AUDIT_CSV_HEADER, AuditLogQueryDto, AuditLogResponseDto, AuditLogService, AuditVerifyResponseDto } from '@dl/audit';
import { Auth, CurrentPrincipal, Permissions, Principal } from '@dl/auth';
import { ApiController, Endpoint } from '@dl/platform/http';

/** The audit log (decisions §25): Admins and Owners read, export and verify their organization's. */
@ApiController('api/audit-log', 'audit log', Auth(Permissions.auditRead))
export class AuditLogController {
  constructor(private readonly audit: AuditLogService) {}

  @Endpoint.get({
    summary: 'Audit entries, newest first; filters combine; X-Next-Cursor names the next page',
    response: AuditLogResponseDto,
    success: { headers: { 'X-Next-Cursor': { description: 'Cursor of the next page (only when more entries match)', schema: { type: 'string' } } } },
    errors: { 400: 'Validation error' },
  })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: AuditLogQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuditLogResponseDto> {
    const page = await this.audit.list(principal.organizationId, query);
    if (page.nextCursor) reply.header('x-next-cursor', page.nextCursor);
    return { entries: page.entries };
  }

  @Endpoint.get('export', {
    summary: 'Every matching audit entry as CSV, newest first, streamed (`limit` and `cursor` are ignored but the cursor still bounds the start)',
    produces: ['text/csv'],
    success: {
      description: 'Attachment `audit-log.csv`: a header line, cells quoted and formula-safe, `changes` as JSON',
      content: { 'text/csv': { schema: { type: 'string', example: `${AUDIT_CSV_HEADER}\r\n` } } },
    },
    errors: { 400: 'Validation error' },
  })
  @Header('cache-control', 'no-store')
  export(@CurrentPrincipal() principal: Principal, @Query() query: AuditLogQueryDto): StreamableFile {
    const stream = this.audit.exportCsv(principal.organizationId, query);
    return new StreamableFile(stream, { type: 'text/csv; charset=utf-8', disposition: 'attachment; filename="audit-log.csv"' });
  }

  @Endpoint.get('verify', { summary: "Checks the organization's hash chain; names the first entry that does not hold", response: AuditVerifyResponseDto })
  verify(@CurrentPrincipal() principal: Principal): Promise<AuditVerifyResponseDto> {
    return this.audit.verify(principal.organizationId);
  }
}
