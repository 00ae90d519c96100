import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { PersonalDataKeysModule } from '../personal-data/personal-data-keys.module.js';
import { TaxEngineModule } from '../tax-engine/tax-engine.module.js';
import { FiscalDocumentsModule } from '../fiscal-documents/fiscal-documents.module.js';
import { EnrichmentController } from './enrichment.controller.js';
import { EnrichmentService } from './enrichment.service.js';
import { MARKETPLACE_PROFILES } from './profiles/marketplace-profile.js';
import { ProfileRegistry } from './profiles/profile-registry.js';
import { REGISTERED_PROFILES } from './marketplaces/registered-profiles.js';

@Module({
  imports: [OrdersModule, TaxEngineModule, PersonalDataKeysModule, FiscalDocumentsModule],
  controllers: [EnrichmentController],
  // The marketplaces' profiles, bound by DI: the enrichment finds them through the registry, never by name in code.
  providers: [EnrichmentService, ProfileRegistry, { provide: MARKETPLACE_PROFILES, useValue: REGISTERED_PROFILES }],
  exports: [EnrichmentService],
})
export class EnrichmentModule {}
