import { Module } from '@nestjs/common';
import { FiscalGroupsModule } from '../fiscal-groups/fiscal-groups.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { FiscalImpactController } from './fiscal-impact.controller.js';
import { FiscalImpactService } from './fiscal-impact.service.js';

/** The impact preview of a change of a fiscal group (`POST /api/admin/fiscal-groups/{id}/impact`): reads only, stores nothing; its computing runs in a worker thread (impact-worker.ts). */
@Module({
  imports: [FiscalGroupsModule, OrdersModule],
  controllers: [FiscalImpactController],
  providers: [FiscalImpactService],
})
export class FiscalImpactModule {}
