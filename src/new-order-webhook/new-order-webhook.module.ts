import { Module } from '@nestjs/common';
import { StatusAliasesModule } from '../status-aliases/status-aliases.module.js';
import { NewOrderWebhookController } from './new-order-webhook.controller.js';
import { NewOrderWebhookService } from './new-order-webhook.service.js';

@Module({ imports: [StatusAliasesModule], controllers: [NewOrderWebhookController], providers: [NewOrderWebhookService] })
export class NewOrderWebhookModule {}
