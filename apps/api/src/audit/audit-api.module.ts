import { Module } from '@nestjs/common';
import { AuditLogController } from './audit-log.controller';

/** AuditModule itself is global (wired by AuthModule). */
@Module({ controllers: [AuditLogController] })
export class AuditApiModule {}
