import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { PersonalDataKeysModule } from '../personal-data/personal-data-keys.module.js';
import { TaxEngineModule } from '../tax-engine/tax-engine.module.js';
import { EnrichmentController } from './enrichment.controller.js';
import { EnrichmentService } from './enrichment.service.js';

@Module({
  imports: [OrdersModule, TaxEngineModule, PersonalDataKeysModule],
  controllers: [EnrichmentController],
  providers: [EnrichmentService],
  exports: [EnrichmentService],
})
export class EnrichmentModule {}
