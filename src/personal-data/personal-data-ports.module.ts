import { Global, Module } from '@nestjs/common';
import { CUSTOMER_SEARCH_KEYS } from '../orders/customer-search-keys.port.js';
import { PersonalDataCustomerSearchKeys } from './customer-search-keys.js';
import { PersonalDataKeysModule } from './personal-data-keys.module.js';

/**
 * The personal-data module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md). Global: the
 * orders module cannot import the personal-data module, which depends on it.
 */
@Global()
@Module({
  imports: [PersonalDataKeysModule],
  providers: [{ provide: CUSTOMER_SEARCH_KEYS, useClass: PersonalDataCustomerSearchKeys }],
  exports: [CUSTOMER_SEARCH_KEYS],
})
export class PersonalDataPortsModule {}
