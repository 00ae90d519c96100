/**
 * The impact preview's computing, in a worker thread of the lowest priority: it parses the orders'
 * payloads, taxes each twice and keeps the tally, so that the thread serving requests only moves
 * text, and the cores go to the preview only when order intake leaves them idle. One worker per
 * preview; the service ends it when the preview ends, whichever way. Messages: `ImpactWorkerRequest`.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { DefaultTaxEngine } from '../tax-engine/default-tax-engine.js';
import { productIdsOf } from '../tax-engine/tax-engine.js';
import { ImpactTally } from './impact-tally.js';
import type { ImpactWorkerData, ImpactWorkerReply, ImpactWorkerRequest } from './impact-worker-messages.js';

// On Linux a thread has its own nice value: this one yields the cores to the service's main thread and to PostgreSQL.
try {
  setPriority(19);
} catch {
  // A platform that refuses only loses the lower priority.
}

const { inForce, proposed, now } = workerData as ImpactWorkerData;
const engine = new DefaultTaxEngine();
const tally = new ImpactTally();
let pending: { id: string; orderId: string; receivedAt: Date; payload: Record<string, unknown> }[] = [];

parentPort!.on('message', (request: ImpactWorkerRequest) => {
  const reply = (message: ImpactWorkerReply) => parentPort!.postMessage(message);
  if (request.type === 'batch') {
    const productIds = new Set<string>();
    pending = request.orders.map((order) => {
      const payload = JSON.parse(order.payloadJson) as Record<string, unknown>;
      for (const id of productIdsOf(payload)) productIds.add(id);
      return { id: order.id, orderId: order.orderId, receivedAt: order.receivedAt, payload };
    });
    reply({ type: 'products', productIds: [...productIds] });
  } else if (request.type === 'compare') {
    for (const order of pending) {
      const before = engine.enrich({ group: inForce, categories: request.categories, payload: order.payload, now });
      const after = engine.enrich({ group: proposed, categories: request.categories, payload: order.payload, now });
      tally.add({ id: order.id, orderId: order.orderId, receivedAt: order.receivedAt, before, after });
    }
    pending = [];
    reply({ type: 'compared' });
  } else {
    reply({ type: 'figures', figures: tally.figures() });
  }
});
