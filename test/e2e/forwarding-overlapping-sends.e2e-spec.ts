import type { ErrorBody } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { afterLaterRetryRound } from '../support/retry-rounds.js';
import { deliveryRows, existingOrderRow, makeRetryJobDue, retryJobOf } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, heldAnswer, type ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver.js';

const FORWARD = '/enrich-order-forward';
const webhookIdOf = (request: ReceivedRequest) => String(request.headers['webhook-id']);

/** A service forwarding to a receiver of its own, with fast retries, an `orders` token and a store that has taxes. */
async function forwardingService(timeoutMs: number, storeId: string) {
  const receiver = await WebhookReceiver.start();
  const t = await bootTestApp({
    ORDER_WEBHOOK_URL: receiver.url,
    WEBHOOK_RETRY_ENABLED: 'true',
    WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms',
    ORDER_WEBHOOK_TIMEOUT_MS: String(timeoutMs),
  });
  const orders = await t.tokenFor(['orders']);
  await seedFiscalData(t.http, await t.tokenFor(['admin']), storeId);
  // The receiver first: a held answer of a failed test must not keep the service's shutdown waiting.
  const close = async () => {
    await receiver.close();
    await t.close();
  };
  return { receiver, t, orders, close };
}

/**
 * Two sends of one order overlap: an older message (A) whose receiver answers late, and a re-send (B, a newer payload
 * with its own webhook-id) answered first. Whatever A's late answer, it is counted and logged, but B's outcome decides
 * the order's status and B keeps its retry job: a newer payload wins, and is never dropped unsent.
 */
describe('forwarding: an older message answered after a newer send of the order (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: string;
  const storeId = unique('overlap-store');
  const orderPaying = (orderId: string, value: number) => ({ ...orderFor(orderId, storeId), payments: [{ method: 'PIX', value }] });

  /** Sends A and waits until the receiver holds it; `answerA` answers it later. */
  async function forwardHeld(orderId: string) {
    const held = heldAnswer();
    receiver.respondWith(held.responder);
    const forwardA = t.http.post<ErrorBody>(FORWARD, orderPaying(orderId, 10), { token: orders });
    const responseA = await held.arrived;
    return { forwardA, responseA, idA: webhookIdOf(receiver.requests.at(-1)!) };
  }

  /** B, the re-send, refused with a long Retry-After so that its retry stays queued until the test makes it due. */
  async function refusedResend(orderId: string) {
    receiver.respondWith(answer(503, 'later', { 'retry-after': '60' }));
    const forwardB = await t.http.post<ErrorBody>(FORWARD, orderPaying(orderId, 20), { token: orders });
    expect(forwardB.status).toBe(502);
    expect(forwardB.body.message).toMatch(/will be retried in 60 s/);
    const row = await existingOrderRow(t.dataSource, orderId);
    const idB = webhookIdOf(receiver.requests.at(-1)!);
    expect(row.webhookId).toBe(idB);
    expect((await retryJobOf(t.dataSource, row.id))?.webhookId).toBe(idB);
    return { row, idB };
  }

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ receiver, t, orders, close } = await forwardingService(5000, storeId));
  });
  afterAll(() => close());
  beforeEach(() => receiver.reset());

  it('A refused late after B was refused: B keeps its retry, A is not retried, and B is delivered when due', async () => {
    const orderId = unique('late-refusal');
    const { forwardA, responseA, idA } = await forwardHeld(orderId);
    const { row, idB } = await refusedResend(orderId);

    responseA.writeHead(500).end('late failure');
    const lateA = await forwardA;
    expect(lateA.status).toBe(502);
    expect(lateA.body.message).toMatch(/a newer send of the order replaced this one meanwhile, so it is not retried/);
    expect((await retryJobOf(t.dataSource, row.id))?.webhookId).toBe(idB);
    expect((await existingOrderRow(t.dataSource, orderId)).status).toBe('FORWARD_FAILED');

    await makeRetryJobDue(t.dataSource, row.id);
    await eventually(async () => (await existingOrderRow(t.dataSource, orderId)).status === 'FORWARDED', {
      what: "B's retry to be delivered",
    });
    await afterLaterRetryRound(t, receiver);
    expect(receiver.requests.map(webhookIdOf)).toEqual([idA, idB, idB]);
    expect(await retryJobOf(t.dataSource, row.id)).toBeNull();
    // Every attempt is counted and logged, A's late answer included.
    expect((await deliveryRows(t.dataSource, orderId)).map(({ webhookId, statusCode }) => [webhookId, statusCode])).toEqual(
      expect.arrayContaining([
        [idA, 500],
        [idB, 503],
        [idB, 200],
      ]),
    );
    expect((await existingOrderRow(t.dataSource, orderId)).webhookAttempts).toBe(3);
  });

  it('A accepted late after B was refused: the order is not FORWARDED and B keeps its retry', async () => {
    const orderId = unique('late-acceptance');
    const { forwardA, responseA } = await forwardHeld(orderId);
    const { row, idB } = await refusedResend(orderId);

    responseA.writeHead(200).end('ok');
    expect((await forwardA).status).toBe(200);

    expect((await retryJobOf(t.dataSource, row.id))?.webhookId).toBe(idB);
    expect((await existingOrderRow(t.dataSource, orderId)).status).toBe('FORWARD_FAILED');
  });

  it('A refused late after B was accepted: the order stays FORWARDED with no job', async () => {
    const orderId = unique('late-refusal-after-acceptance');
    const { forwardA, responseA } = await forwardHeld(orderId);
    receiver.respondWith(answer(200, 'ok'));
    expect((await t.http.post(FORWARD, orderPaying(orderId, 20), { token: orders })).status).toBe(200);
    const row = await existingOrderRow(t.dataSource, orderId);
    expect(row.status).toBe('FORWARDED');

    responseA.writeHead(500).end('late failure');
    expect((await forwardA).status).toBe(502);
    expect(await retryJobOf(t.dataSource, row.id)).toBeNull();
    expect((await existingOrderRow(t.dataSource, orderId)).status).toBe('FORWARDED');
  });

  it('a redelivery of A accepted late after B was refused: B keeps its retry and the order is not FORWARDED', async () => {
    const orderId = unique('late-redelivery');
    expect((await t.http.post(FORWARD, orderPaying(orderId, 10), { token: orders })).status).toBe(200);

    const held = heldAnswer();
    receiver.respondWith(held.responder);
    const admin = await t.tokenFor(['admin']);
    const redeliverA = t.apiAs(admin).POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: orderId } } });
    const responseA = await held.arrived;
    const { row, idB } = await refusedResend(orderId);

    responseA.writeHead(200).end('ok');
    expect((await redeliverA).response.status).toBe(200);
    expect((await retryJobOf(t.dataSource, row.id))?.webhookId).toBe(idB);
    expect((await existingOrderRow(t.dataSource, orderId)).status).toBe('FORWARD_FAILED');
  });
});

describe('forwarding: a receiver that answers 2xx and then stalls its body (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: string;
  const storeId = unique('stalled-body-store');

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ receiver, t, orders, close } = await forwardingService(500, storeId));
  });
  afterAll(() => close());
  beforeEach(() => receiver.reset());

  it('the 2xx status line is the acceptance: FORWARDED, logged without an error, not retried', async () => {
    const orderId = unique('stalled-body');
    // The status line and headers at once, then part of the body, and nothing more until the timeout.
    receiver.respondWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      response.write('partial');
    });
    expect((await t.http.post(FORWARD, orderFor(orderId, storeId), { token: orders })).status).toBe(200);
    const row = await existingOrderRow(t.dataSource, orderId);
    expect(row.status).toBe('FORWARDED');
    expect(await retryJobOf(t.dataSource, row.id)).toBeNull();

    await afterLaterRetryRound(t, receiver);
    expect(receiver.requests).toHaveLength(1);
    expect((await deliveryRows(t.dataSource, orderId)).map(({ trigger, statusCode, error }) => ({ trigger, statusCode, error }))).toEqual([
      { trigger: 'forward', statusCode: 200, error: null },
    ]);
  });
});
