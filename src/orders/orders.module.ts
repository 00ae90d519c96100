import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrderCountFolder } from './order-count-folder.js';
import { OrderPayloadMeasurer } from './order-payload-measurer.js';
import { OrderDetailSections } from './order-detail-sections.js';
import { OrderEntity, OrderStatusHistoryEntity } from './order.entity.js';
import {
  OrderCountDayEntity,
  OrderCountDeltaEntity,
  OrderCountHourEntity,
  OrderIdFragmentCountEntity,
  OrderIdFragmentDeltaEntity,
} from './order-count.entity.js';
import { OrderTaxFoldEntity, OrderTaxHourEntity } from './order-tax-hour.entity.js';
import { OrderTaxFolder } from './order-tax-folder.js';
import { OrderTaxReportRepository } from './order-tax-report.repository.js';
import { OrdersAdminController } from './orders-admin.controller.js';
import { OrdersQueryService } from './orders-query.service.js';
import { OrderStatusWriter } from './order-status-writer.js';
import { OrdersRepository } from './orders.repository.js';
import { OrderForwardingRepository } from './order-forwarding.repository.js';
import { OrderReadsRepository } from './order-reads.repository.js';
import { OrderStatsRepository } from './order-stats.repository.js';
import { OrderWindowRepository } from './order-window.repository.js';
import { OrderIdTakeover } from './order-id-takeover.js';
import { AuditModule } from '../audit/audit.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';

@Module({
  imports: [
    // Global in the app; named here for the order id takeover's audit event and metric, so that any context with the orders has them.
    AuditModule,
    MetricsModule,
    TypeOrmModule.forFeature([
      OrderEntity,
      OrderStatusHistoryEntity,
      OrderCountDayEntity,
      OrderCountDeltaEntity,
      OrderCountHourEntity,
      OrderTaxHourEntity,
      OrderTaxFoldEntity,
      OrderIdFragmentCountEntity,
      OrderIdFragmentDeltaEntity,
    ]),
  ],
  controllers: [OrdersAdminController],
  providers: [
    OrdersRepository,
    OrderReadsRepository,
    OrderForwardingRepository,
    OrderStatsRepository,
    OrderWindowRepository,
    OrderStatusWriter,
    OrdersQueryService,
    OrderCountFolder,
    OrderTaxFolder,
    OrderTaxReportRepository,
    OrderPayloadMeasurer,
    OrderDetailSections,
    OrderIdTakeover,
  ],
  exports: [
    OrderTaxReportRepository,
    OrdersRepository,
    OrderReadsRepository,
    OrderForwardingRepository,
    OrderStatsRepository,
    OrderWindowRepository,
    OrderStatusWriter,
    OrderDetailSections,
    OrderIdTakeover,
  ],
})
export class OrdersModule {}
