import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ChannelsModule } from '../channels/channels.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { StatusAliasesModule } from '../status-aliases/status-aliases.module.js';
import { TaxEngineModule } from '../tax-engine/tax-engine.module.js';
import { FulfillmentController } from './fulfillment.controller.js';
import { FulfillmentRepository } from './fulfillment.repository.js';
import { FulfillmentService } from './fulfillment.service.js';
import { OrderDispatchEntity } from './order-dispatch.entity.js';
import { OrderTrackingEntity } from './order-tracking.entity.js';
import { OrderTransferEntity } from './order-transfer.entity.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([OrderTrackingEntity, OrderTransferEntity, OrderDispatchEntity]),
    OrdersModule,
    ChannelsModule,
    TaxEngineModule,
    StatusAliasesModule,
  ],
  controllers: [FulfillmentController],
  providers: [FulfillmentService, FulfillmentRepository],
  exports: [FulfillmentRepository],
})
export class FulfillmentModule {}
