import { Module } from '@nestjs/common';
import { FiscalGroupsModule } from '../fiscal-groups/fiscal-groups.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { StatsController } from './stats.controller.js';
import { StatsService } from './stats.service.js';

/** The admin dashboard's aggregates (`/api/admin/stats/…`): reads only, through the modules that own each table. */
@Module({
  imports: [OrdersModule, WebhooksModule, FiscalGroupsModule],
  controllers: [StatsController],
  providers: [StatsService],
})
export class StatsModule {}
