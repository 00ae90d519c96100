import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { PersonalDataCopies, PersonalDataScrubber } from '../personal-data/personal-data-copies.port.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookRetryJobEntity } from './webhook-retry-job.entity.js';

/**
 * The webhook's copies of an order (the delivery log's answer excerpts and errors, a queued retry's body), erased with
 * the order (docs/personal-data.md, "Erase"). The request headers hold no personal data (signature, ids, user agent).
 */
@Injectable()
export class WebhookPersonalDataCopies implements PersonalDataCopies {
  async eraseIn(manager: EntityManager, orderDbId: string, scrub: PersonalDataScrubber): Promise<number> {
    let changed = 0;
    const deliveries = await manager.find(WebhookDeliveryEntity, { where: { orderDbId }, lock: { mode: 'pessimistic_write' } });
    for (const delivery of deliveries) {
      const responseBody = delivery.responseBody === null ? null : scrub.text(delivery.responseBody);
      const error = delivery.error === null ? null : scrub.text(delivery.error);
      if (responseBody === delivery.responseBody && error === delivery.error) continue;
      await manager.update(WebhookDeliveryEntity, { id: delivery.id }, { responseBody, error });
      changed++;
    }
    const job = await manager.findOne(WebhookRetryJobEntity, { where: { orderDbId }, lock: { mode: 'pessimistic_write' } });
    if (job?.body) {
      const body = erasedBody(job.body, scrub);
      if (body !== job.body) {
        await manager.update(WebhookRetryJobEntity, { id: job.id }, { body });
        changed++;
      }
    }
    return changed;
  }

  async eraseInOrders(
    manager: EntityManager,
    orders: ReadonlyArray<{ orderDbId: string; scrub: PersonalDataScrubber }>,
  ): Promise<Map<string, number>> {
    const changed = new Map<string, number>();
    if (orders.length === 0) return changed;
    const scrubs = new Map(orders.map((order) => [order.orderDbId, order.scrub]));
    const ids = [...scrubs.keys()];
    const count = (orderDbId: string) => changed.set(orderDbId, (changed.get(orderDbId) ?? 0) + 1);
    const deliveries = await manager.find(WebhookDeliveryEntity, { where: { orderDbId: In(ids) }, lock: { mode: 'pessimistic_write' } });
    for (const delivery of deliveries) {
      const scrub = scrubs.get(delivery.orderDbId)!;
      const responseBody = delivery.responseBody === null ? null : scrub.text(delivery.responseBody);
      const error = delivery.error === null ? null : scrub.text(delivery.error);
      if (responseBody === delivery.responseBody && error === delivery.error) continue;
      await manager.update(WebhookDeliveryEntity, { id: delivery.id }, { responseBody, error });
      count(delivery.orderDbId);
    }
    const jobs = await manager.find(WebhookRetryJobEntity, { where: { orderDbId: In(ids) }, lock: { mode: 'pessimistic_write' } });
    for (const job of jobs) {
      if (!job.body) continue;
      const body = erasedBody(job.body, scrubs.get(job.orderDbId)!);
      if (body === job.body) continue;
      await manager.update(WebhookRetryJobEntity, { id: job.id }, { body });
      count(job.orderDbId);
    }
    return changed;
  }
}

/** A queued body is the enriched payload's JSON: erased as a document, or as text when it is not JSON. */
function erasedBody(body: string, scrub: PersonalDataScrubber): string {
  try {
    const erased = JSON.stringify(scrub.document(JSON.parse(body)));
    return erased === JSON.stringify(JSON.parse(body)) ? body : erased;
  } catch {
    return scrub.text(body);
  }
}
