import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEventEntity } from './audit-event.entity.js';
import { AuditLog } from './audit-log.js';

/** The audit log (docs/audit-log.md): AuditLog, used by every module that changes something, in its own transaction. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity])],
  providers: [AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}
