import { Module } from '@nestjs/common';
import { FiscalGroupsModule } from '../fiscal-groups/fiscal-groups.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { OrderExportController } from './order-export.controller.js';
import { ReportsController } from './reports.controller.js';
import { ReportsService } from './reports.service.js';

/** The accountant's reports (`/api/admin/reports/…`, docs/reports.md): the tax report and the order list's export. */
@Module({
  imports: [OrdersModule, FiscalGroupsModule],
  controllers: [ReportsController, OrderExportController],
  providers: [ReportsService],
})
export class ReportsModule {}
