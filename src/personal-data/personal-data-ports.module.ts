import { Global, Module } from '@nestjs/common';
import { ORDER_PERSONAL_DATA_VIEW } from '../orders/order-personal-data-view.port.js';
import { PersonalDataKeysModule } from './personal-data-keys.module.js';
import { PersonalDataMasking } from './personal-data-masking.js';

/**
 * The personal-data module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md): how the
 * orders are shown to a reader who may not see a customer's contact data. Global: the orders module cannot import the
 * personal-data module, which depends on it.
 */
@Global()
@Module({
  imports: [PersonalDataKeysModule],
  providers: [{ provide: ORDER_PERSONAL_DATA_VIEW, useClass: PersonalDataMasking }],
  exports: [ORDER_PERSONAL_DATA_VIEW],
})
export class PersonalDataPortsModule {}
