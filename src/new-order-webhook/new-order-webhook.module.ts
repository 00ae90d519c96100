import { Module } from '@nestjs/common';
import { OrdersModule } from '../orders/orders.module.js';
import { PersonalDataKeysModule } from '../personal-data/personal-data-keys.module.js';
import { StatusAliasesModule } from '../status-aliases/status-aliases.module.js';
import { NewOrderWebhookController } from './new-order-webhook.controller.js';
import { NewOrderWebhookService } from './new-order-webhook.service.js';

@Module({
  imports: [OrdersModule, StatusAliasesModule, PersonalDataKeysModule],
  controllers: [NewOrderWebhookController],
  providers: [NewOrderWebhookService],
})
export class NewOrderWebhookModule {}
