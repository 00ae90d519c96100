import { Global, Module } from '@nestjs/common';
import { CUSTOMER_SEARCH_KEYS } from '../orders/customer-search-keys.port.js';
import { ORDER_PERSONAL_DATA_VIEW } from '../orders/order-personal-data-view.port.js';
import { PersonalDataCustomerSearchKeys } from './customer-search-keys.js';
import { PersonalDataKeysModule } from './personal-data-keys.module.js';
import { PersonalDataMasking } from './personal-data-masking.js';

/**
 * The personal-data module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md): the keys
 * the order list's search box looks a customer up by, and how the orders are shown to a reader who may not see a
 * customer's contact data. Global: the orders module cannot import the personal-data module, which depends on it.
 */
@Global()
@Module({
  imports: [PersonalDataKeysModule],
  providers: [
    { provide: CUSTOMER_SEARCH_KEYS, useClass: PersonalDataCustomerSearchKeys },
    { provide: ORDER_PERSONAL_DATA_VIEW, useClass: PersonalDataMasking },
  ],
  exports: [CUSTOMER_SEARCH_KEYS, ORDER_PERSONAL_DATA_VIEW],
})
export class PersonalDataPortsModule {}
