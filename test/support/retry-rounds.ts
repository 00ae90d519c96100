import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository.js';
import { order } from '../factories/index.js';
import { eventually } from './eventually.js';
import { retryJobOf } from './rows.js';
import type { TestApp } from './test-app.js';
import { answer, type WebhookReceiver } from './webhook-receiver.js';

let markers = 0;

/**
 * Waits for a later round of the retry worker, instead of pausing to see that "nothing else arrived".
 * A marker order's retry, queued now and due at once, is claimed no earlier than every job that was
 * due before it (claims go by `run_at`); once the receiver has it and the worker has finished with it,
 * whatever was queued before has had its turn. The receiver answers the marker 200 (so it is not
 * retried into the next test), and its request is taken out of `receiver.requests`: the test counts
 * only its own. With several instances, one of them did that round.
 */
export async function afterLaterRetryRound(t: TestApp, receiver: WebhookReceiver): Promise<void> {
  const marker = `retry-round-marker-${process.pid}-${++markers}`;
  const enrichedPayload = { orderId: marker, marker: true };
  const row = await order(t.dataSource, { orderId: marker, status: 'ENRICHED', enrichedPayload, webhookId: `msg_${marker}` });
  const isMarker = (body: string) => body.includes(marker);
  const fallback = receiver.fallback;
  receiver.fallback = (request, response) => (isMarker(request.body) ? answer(200, 'marker') : fallback)(request, response);
  try {
    await t.app.get(WebhookDeliveriesRepository).scheduleRetry(row.id, `msg_${marker}`, 0);
    await eventually(() => receiver.requests.some((request) => isMarker(request.body)), { what: "the marker's retry to arrive" });
    // The job goes once the attempt is recorded and counted.
    await eventually(async () => (await retryJobOf(t.dataSource, row.id)) === null, { what: "the worker to finish the marker's retry" });
  } finally {
    receiver.fallback = fallback;
  }
  const index = receiver.requests.findIndex((request) => isMarker(request.body));
  receiver.requests.splice(index, 1);
}
