import { Global, Module } from '@nestjs/common';
import { TAXED_ORDERS } from '../fiscal-groups/taxed-orders.port.js';
import { OrdersModule } from './orders.module.js';
import { OrdersRepository } from './orders.repository.js';

/**
 * The orders module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md). Global: the
 * owners cannot import OrdersModule, which depends on them, so their providers receive these by token.
 */
@Global()
@Module({
  imports: [OrdersModule],
  providers: [{ provide: TAXED_ORDERS, useExisting: OrdersRepository }],
  exports: [TAXED_ORDERS],
})
export class OrdersPortsModule {}
