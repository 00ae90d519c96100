import { Global, Module } from '@nestjs/common';
import { FulfillmentModule } from '../fulfillment/fulfillment.module.js';
import { FulfillmentRepository } from '../fulfillment/fulfillment.repository.js';
import { ORDER_DETAIL_SECTIONS, type OrderDetailSectionSource } from '../orders/order-detail-sections.js';
import { WebhookDeliveriesRepository } from '../webhooks/webhook-deliveries.repository.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/**
 * Binds the orders module's port ORDER_DETAIL_SECTIONS to the sections the other modules keep: a module with records
 * of an order adds its repository here (see "Ports" in docs/adding-a-module.md). Global: the orders module cannot
 * import the modules that keep sections, which import it.
 */
@Global()
@Module({
  imports: [FulfillmentModule, WebhooksModule],
  providers: [
    {
      provide: ORDER_DETAIL_SECTIONS,
      useFactory: (...sources: OrderDetailSectionSource[]) => sources.flatMap((source) => source.detailSections()),
      inject: [FulfillmentRepository, WebhookDeliveriesRepository],
    },
  ],
  exports: [ORDER_DETAIL_SECTIONS],
})
export class OrderDetailSectionsModule {}
