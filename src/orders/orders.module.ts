import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrderEntity, OrderStatusHistoryEntity } from './order.entity.js';
import { OrdersRepository } from './orders.repository.js';

@Module({
  imports: [TypeOrmModule.forFeature([OrderEntity, OrderStatusHistoryEntity])],
  providers: [OrdersRepository],
  exports: [OrdersRepository, TypeOrmModule],
})
export class OrdersModule {}
