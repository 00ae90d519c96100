import { Global, Module } from '@nestjs/common';
import { INTAKE_SHAPE_PERSONAL_FIELDS } from '../personal-data/intake-shape-personal-fields.port.js';
import { REGISTERED_PROFILES } from './marketplaces/registered-profiles.js';
import { MARKETPLACE_PROFILES } from './profiles/marketplace-profile.js';
import { ProfilePersonalFields } from './profiles/profile-personal-fields.js';

/**
 * The enrichment module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md): the personal
 * fields each marketplace profile declares, for the personal-data module's keys, lookup, erasure and retention.
 * Global: the personal-data keys are imported by EnrichmentModule, so they cannot import it back.
 */
@Global()
@Module({
  providers: [
    { provide: MARKETPLACE_PROFILES, useValue: REGISTERED_PROFILES },
    { provide: INTAKE_SHAPE_PERSONAL_FIELDS, useClass: ProfilePersonalFields },
  ],
  exports: [INTAKE_SHAPE_PERSONAL_FIELDS],
})
export class EnrichmentPortsModule {}
