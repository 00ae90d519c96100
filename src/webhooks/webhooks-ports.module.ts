import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PERSONAL_DATA_COPIES } from '../personal-data/personal-data-copies.port.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookPersonalDataCopies } from './webhook-personal-data.js';
import { WebhookRetryJobEntity } from './webhook-retry-job.entity.js';

/**
 * The webhook module's side of the ports other modules own (see "Ports" in docs/adding-a-module.md). Global: the
 * personal-data module cannot import WebhooksModule, which depends on it through enrichment.
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDeliveryEntity, WebhookRetryJobEntity])],
  providers: [{ provide: PERSONAL_DATA_COPIES, useClass: WebhookPersonalDataCopies }],
  exports: [PERSONAL_DATA_COPIES],
})
export class WebhooksPortsModule {}
