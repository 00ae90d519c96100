import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrderEntity, OrderStatusHistoryEntity } from './order.entity.js';
import { OrderStatusWriter } from './order-status-writer.js';
import { OrdersRepository } from './orders.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrderEntity, OrderStatusHistoryEntity])],
  providers: [OrdersRepository, OrderStatusWriter],
  exports: [OrdersRepository, OrderStatusWriter, TypeOrmModule],
})
export class OrdersModule {}
