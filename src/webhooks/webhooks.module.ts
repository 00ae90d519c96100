import { Module } from '@nestjs/common';
import { AttemptRecorder } from './attempt-recorder.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EnrichmentModule } from '../enrichment/enrichment.module.js';
import { OrdersModule } from '../orders/orders.module.js';
import { ForwardingController } from './forwarding.controller.js';
import { ForwardingService } from './forwarding.service.js';
import { RedeliveryController } from './redelivery.controller.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookRetryJobEntity } from './webhook-retry-job.entity.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';
import { WebhookDeliveryRetention } from './webhook-delivery-retention.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookRetryWorker } from './webhook-retry.worker.js';
import { WebhookSender } from './webhook-sender.js';

/** Forwarding enriched orders to the order webhook: signed, counted, logged, retried. */
@Module({
  imports: [EnrichmentModule, OrdersModule, TypeOrmModule.forFeature([WebhookDeliveryEntity, WebhookRetryJobEntity])],
  controllers: [ForwardingController, RedeliveryController],
  providers: [
    ForwardingService,
    WebhookDeliveryService,
    WebhookDeliveriesRepository,
    AttemptRecorder,
    WebhookSender,
    WebhookMetrics,
    WebhookRetryWorker,
    WebhookDeliveryRetention,
  ],
  exports: [TypeOrmModule, WebhookDeliveriesRepository],
})
export class WebhooksModule {}
