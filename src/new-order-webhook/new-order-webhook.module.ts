import { Module } from '@nestjs/common';
import { NewOrderWebhookController } from './new-order-webhook.controller.js';
import { NewOrderWebhookService } from './new-order-webhook.service.js';

@Module({ controllers: [NewOrderWebhookController], providers: [NewOrderWebhookService] })
export class NewOrderWebhookModule {}
