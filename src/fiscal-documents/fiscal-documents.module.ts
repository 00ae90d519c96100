import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { NfeController } from './nfe/nfe.controller.js';
import { NfeItemsService } from './nfe/nfe-items.service.js';

/**
 * Fiscal documents printed from a taxed order: today the items of an NF-e/NFC-e. Owns no table: it reads the
 * order's stored enrichment through the orders module. Enrichment and the order routes receive `NfeItemsService`
 * from here by Nest's DI. See docs/fiscal-documents.md for adding another document beside it.
 */
@Module({
  imports: [OrdersModule],
  controllers: [NfeController],
  providers: [NfeItemsService],
  exports: [NfeItemsService],
})
export class FiscalDocumentsModule {}
