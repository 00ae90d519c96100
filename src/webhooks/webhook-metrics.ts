import { Inject, Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { DeliveryTrigger } from '../orders/dto/persisted-order.dto.js';
import type { DeliveryOutcome } from './webhook-sender.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** Deliveries by trigger and outcome, their latency, and the retry queue (counted on scrape). */
@Injectable()
export class WebhookMetrics {
  private readonly deliveries: Counter<'trigger' | 'outcome'>;
  private readonly duration: Histogram<'trigger' | 'outcome'>;

  constructor(metrics: MetricsService, repository: WebhookDeliveriesRepository, @Inject(ROOT_LOGGER) logger: Logger) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Order webhook delivery attempts by trigger (forward, redeliver, retry) and outcome (delivered, rejected, timeout, unreachable)',
      labelNames: ['trigger', 'outcome'] as const,
      registers,
    });
    this.duration = new Histogram({
      name: 'webhook_delivery_duration_seconds',
      help: 'Order webhook delivery attempt latency by trigger and outcome',
      labelNames: ['trigger', 'outcome'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    new Gauge({
      name: 'webhook_retry_queue_depth',
      help: 'Pending automatic retries of failed forwards: due (run_at reached) and scheduled (later, or being sent)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        try {
          const depth = await repository.queueDepth();
          this.set({ state: 'due' }, depth.due);
          this.set({ state: 'scheduled' }, depth.scheduled);
        } catch (error) {
          // A scrape must not fail because the database is briefly away; the gauge keeps its last value.
          logger.warn({ context: 'WebhookMetrics', err: error }, 'could not count the retry queue');
        }
      },
    });
  }

  observe(trigger: DeliveryTrigger, outcome: DeliveryOutcome, durationMs: number): void {
    this.deliveries.inc({ trigger, outcome });
    this.duration.observe({ trigger, outcome }, durationMs / 1000);
  }
}
