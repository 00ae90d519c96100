import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { PersonalDataController } from './personal-data.controller.js';
import { PersonalDataKeysModule } from './personal-data-keys.module.js';
import { PersonalDataService } from './personal-data.service.js';

/** A person's data in the stored orders: lookup (the person's copy) and erasure. See docs/personal-data.md. */
@Module({
  imports: [OrdersModule, PersonalDataKeysModule],
  controllers: [PersonalDataController],
  providers: [PersonalDataService],
})
export class PersonalDataModule {}
