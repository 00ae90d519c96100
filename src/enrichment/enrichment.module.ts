import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { TaxEngineModule } from '../tax-engine/tax-engine.module.js';
import { FiscalDocumentsModule } from '../fiscal-documents/fiscal-documents.module.js';
import { EnrichmentController } from './enrichment.controller.js';
import { EnrichmentService } from './enrichment.service.js';

@Module({
  imports: [OrdersModule, TaxEngineModule, FiscalDocumentsModule],
  controllers: [EnrichmentController],
  providers: [EnrichmentService],
  exports: [EnrichmentService],
})
export class EnrichmentModule {}
