import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEventEntity } from './audit-event.entity.js';
import { AuditEventsController } from './audit-events.controller.js';
import { AuditEventsRepository } from './audit-events.repository.js';
import { AuditEventsService } from './audit-events.service.js';
import { AuditLog } from './audit-log.js';
import { AuditRetention } from './audit-retention.js';

/**
 * The audit log (docs/audit-log.md): AuditLog, used by every module that changes something, in its
 * own transaction; the admin's list of events; the retention job.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity])],
  controllers: [AuditEventsController],
  providers: [AuditLog, AuditEventsRepository, AuditEventsService, AuditRetention],
  exports: [AuditLog, AuditRetention, AuditEventsService],
})
export class AuditModule {}
