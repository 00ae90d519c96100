import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { PersonalDataEraser } from './personal-data-eraser.js';
import { PersonalDataRetention } from './personal-data-retention.js';
import { PersonalDataBackfill } from './personal-data-backfill.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { PersonalDataController } from './personal-data.controller.js';
import { PersonalDataKeysModule } from './personal-data-keys.module.js';
import { PersonalDataService } from './personal-data.service.js';

/** A person's data in the stored orders: lookup (the person's copy) and erasure. See docs/personal-data.md. */
@Module({
  imports: [AuditModule, MetricsModule, OrdersModule, PersonalDataKeysModule],
  controllers: [PersonalDataController],
  providers: [PersonalDataService, PersonalDataEraser, PersonalDataRetention, PersonalDataBackfill],
  exports: [PersonalDataEraser, PersonalDataRetention, PersonalDataBackfill],
})
export class PersonalDataModule {}
