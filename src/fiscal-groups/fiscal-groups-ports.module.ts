import { Global, Module } from '@nestjs/common';
import { FISCAL_GROUP_LOADER } from '../fiscal-lookup/fiscal-lookup.service.js';
import { FiscalGroupStoresRepository } from './fiscal-group-stores.repository.js';
import { FiscalGroupsModule } from './fiscal-groups.module.js';

/**
 * The fiscal groups' side of the ports other modules own (see "Ports" in docs/adding-a-module.md). Global: the
 * fiscal lookup cannot import FiscalGroupsModule, which imports it to invalidate its caches.
 */
@Global()
@Module({
  imports: [FiscalGroupsModule],
  providers: [{ provide: FISCAL_GROUP_LOADER, useExisting: FiscalGroupStoresRepository }],
  exports: [FISCAL_GROUP_LOADER],
})
export class FiscalGroupsPortsModule {}
