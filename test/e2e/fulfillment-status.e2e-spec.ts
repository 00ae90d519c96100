import { bootFulfillmentApp, domainErrorD, errorD, fulfillmentSteps, ORDER, type FulfillmentApp } from '../support/fulfillment.js';
import { failed, ok, refusedPos, type PosErrorBody } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  const { row, history, enrichedOrder, setStatus } = fulfillmentSteps(() => f);
  const changeStatus = (order_id: string | number, status: string) =>
    t.apiAs(orders).POST('/api/api/order/status', { body: { order_id, status } });

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders } = f);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/api/order/status', () => {
    it('moves the order forward and answers { message, status: "success", orderStatus }', async () => {
      const orderId = unique('st');
      await enrichedOrder(orderId);
      expect(ok(await changeStatus(orderId, 'ACCEPTED'), 200)).toEqual({
        message: `Order ${orderId} changed from ENRICHED to ACCEPTED`,
        status: 'success',
        orderStatus: 'ACCEPTED',
      });
      expect((await row(orderId)).status).toBe('ACCEPTED');

      // Skipping ranks is allowed.
      expect(ok(await changeStatus(orderId, 'DISPATCHED'), 200)).toMatchObject({ status: 'success', orderStatus: 'DISPATCHED' });
    });

    it('accepts the order id as a number (compared as text)', async () => {
      const orderId = String(880000 + process.pid);
      await enrichedOrder(orderId);
      expect(ok(await changeStatus(Number(orderId), 'IN_PREPARATION'), 200).orderStatus).toBe('IN_PREPARATION');
    });

    it('answers 200 and writes nothing when the status is already the current one', async () => {
      const orderId = unique('same');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      const before = await history(orderId);
      expect(ok(await changeStatus(orderId, 'READY'), 200)).toEqual({
        message: `Order ${orderId} is already READY; nothing changed`,
        status: 'success',
        orderStatus: 'READY',
      });
      expect(await history(orderId)).toEqual(before);
    });

    it('409 for a move backwards, naming both statuses; the order keeps its status', async () => {
      const orderId = unique('back');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      const response = refusedPos(await changeStatus(orderId, 'IN_PREPARATION'), 409);
      const reason = 'cannot change from READY back to IN_PREPARATION';
      expect(response.body).toEqual(
        domainErrorD(`Order ${orderId}: ${reason}`, 'ILLEGAL_STATUS_TRANSITION', [
          { field: 'status', problem: reason, orderId, currentStatus: 'READY', requestedStatus: 'IN_PREPARATION' },
        ]),
      );
      expectDeclaredError('POST', '/api/api/order/status', response);
      expect((await row(orderId)).status).toBe('READY');
    });

    it('409 for a point-of-sale label whose status the order cannot move to names the status the label stands for', async () => {
      const orderId = unique('backlabel');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DELIVERED');
      const response = refusedPos(await changeStatus(orderId, 'Por Asignar'), 409);
      expect(response.body.code).toBe('ILLEGAL_STATUS_TRANSITION');
      expect(response.body.details).toMatchObject([{ orderId, currentStatus: 'DELIVERED', requestedStatus: 'READY' }]);
      expectDeclaredError('POST', '/api/api/order/status', response);
    });

    it.each(['DELIVERED', 'CANCELLED', 'REJECTED'])('409 for any move out of %s', async (terminal) => {
      const orderId = unique('term');
      await enrichedOrder(orderId);
      await setStatus(orderId, terminal);
      for (const status of ['ACCEPTED', 'READY', terminal === 'CANCELLED' ? 'REJECTED' : 'CANCELLED']) {
        const response = refusedPos(await changeStatus(orderId, status), 409);
        expect(response.body.error).toContain(`from ${terminal} to ${status}`);
        expect([status, response.body.code, response.body.details?.[0]?.currentStatus]).toEqual([
          status,
          'ILLEGAL_STATUS_TRANSITION',
          terminal,
        ]);
      }
      expect((await row(orderId)).status).toBe(terminal);
    });

    it('CANCELLED and REJECTED from a non-final status', async () => {
      const cancelled = unique('cancel');
      await enrichedOrder(cancelled);
      await setStatus(cancelled, 'DISPATCHED');
      await setStatus(cancelled, 'CANCELLED');
      const rejected = unique('reject');
      await enrichedOrder(rejected);
      await setStatus(rejected, 'REJECTED');
      expect([(await row(cancelled)).status, (await row(rejected)).status]).toEqual(['CANCELLED', 'REJECTED']);
    });

    it.each([
      ['an unknown status', { status: 'PENDING' }],
      ['a status that is not text', { status: 3 }],
      ['no status', { status: undefined }],
      ['no order_id', { order_id: undefined }],
      ['an empty order_id', { order_id: '' }],
      ['an order_id that is an object', { order_id: { id: 1 } }],
      ['a decimal order_id', { order_id: 12.5 }],
    ])('400 { error } for %s', async (_label, change) => {
      const orderId = unique('bad');
      // Bodies outside the schema: sent raw.
      const response = await t.http.post<PosErrorBody>(
        `${ORDER}/status`,
        { order_id: orderId, status: 'ACCEPTED', ...change },
        { token: orders },
      );
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
      expect(typeof response.body.error).toBe('string');
    });

    it('404 { error } for an unknown order', async () => {
      expect(failed(await changeStatus('nobody-ordered-this', 'ACCEPTED'), 404)).toEqual(errorD('Order nobody-ordered-this not found'));
    });

    it('401 and 403 in the point-of-sale error shape', async () => {
      const none = t.apiAs().POST('/api/api/order/status', { body: { order_id: 'x', status: 'ACCEPTED' } });
      expect(Object.keys(failed(await none, 401))).toEqual(['error', 'message']);
      const platformOnly = await t.tokenFor(['platform', 'admin']);
      const forbidden = t.apiAs(platformOnly).POST('/api/api/order/status', { body: { order_id: 'x', status: 'ACCEPTED' } });
      expect(Object.keys(failed(await forbidden, 403))).toEqual(['error', 'message']);
    });
  });

  it('serializes concurrent status changes of one order: each move is checked against the status it really follows', async () => {
    const orderId = unique('race');
    await enrichedOrder(orderId);
    await setStatus(orderId, 'READY');
    // Four moves at once, each under the row lock: a move after a final status is refused, so at most
    // DISPATCHED and then one final status are accepted.
    const answers = (
      await Promise.all(['DELIVERED', 'CANCELLED', 'DISPATCHED', 'REJECTED'].map((status) => changeStatus(orderId, status)))
    ).map(({ response }) => response);
    const history_ = await history(orderId);
    // Every accepted change is a row whose from_status is the previous row's to_status.
    for (let index = 1; index < history_.length; index++) expect(history_[index]!.fromStatus).toBe(history_[index - 1]!.toStatus);
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    expect([1, 2]).toContain(accepted);
    expect(history_.length).toBe(2 + accepted); // ENRICHED, READY, then each accepted change
    expect(['DELIVERED', 'CANCELLED', 'REJECTED']).toContain((await row(orderId)).status);
  });
});
