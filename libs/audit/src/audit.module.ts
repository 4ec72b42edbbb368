import { Global, Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { AuditRecorder, AuditSink } from './audit-recorder';
import { AuditRetentionService } from './audit-retention.service';
import { AuditRepository } from './audit.repository';

/**
 * The audit log (decisions §25), global: every state-changing service injects the one
 * AuditRecorder, in the api, the worker and the operator CLI alike. Needs Prisma (PlatformModule).
 */
@Global()
@Module({
  providers: [AuditRepository, AuditRecorder, { provide: AuditSink, useExisting: AuditRecorder }, AuditLogService, AuditRetentionService],
  exports: [AuditRecorder, AuditSink, AuditLogService, AuditRetentionService],
})
export class AuditModule {}
