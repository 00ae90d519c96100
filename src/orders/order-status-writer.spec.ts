import { ApiError } from '../common/errors/api-error.js';
import { ErrorFamily, renderErrorBody } from '../common/errors/error-families.js';
import { OrderStatusWriter } from './order-status-writer.js';
import type { LockedOrder, OrdersRepository } from './orders.repository.js';

const order = (status: LockedOrder['status']): LockedOrder => ({
  id: '5c0f0e4e-8a51-4a34-9d0e-0d8f3f1c2b7a',
  orderId: 'ORD-1',
  status,
  storeId: 'store-1',
  payload: {},
  enrichedPayload: null,
  fiscalGroupId: null,
  taxInstant: null,
});

function refusal(run: () => void): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the move was allowed');
}

describe('OrderStatusWriter.check', () => {
  // check() never touches the repository.
  const writer = new OrderStatusWriter({} as OrdersRepository);

  it('allows a move the machine allows', () => {
    expect(() => writer.check(order('ACCEPTED'), 'READY')).not.toThrow();
  });

  it('refuses a move backwards with ILLEGAL_STATUS_TRANSITION naming the order and both statuses', () => {
    const error = refusal(() => writer.check(order('READY'), 'IN_PREPARATION'));
    expect([error.status, error.code, error.message]).toEqual([
      409,
      'ILLEGAL_STATUS_TRANSITION',
      'Order ORD-1: cannot change from READY back to IN_PREPARATION',
    ]);
    expect(error.details).toEqual([
      {
        field: 'status',
        problem: 'cannot change from READY back to IN_PREPARATION',
        orderId: 'ORD-1',
        currentStatus: 'READY',
        requestedStatus: 'IN_PREPARATION',
      },
    ]);
  });

  it('refuses a move out of a final status the same way', () => {
    const error = refusal(() => writer.check(order('DELIVERED'), 'CANCELLED'));
    expect(error.details).toMatchObject([{ currentStatus: 'DELIVERED', requestedStatus: 'CANCELLED' }]);
  });

  it('is answered on the point-of-sale routes with the sentence in error and message, and its code and details added', () => {
    const error = refusal(() => writer.check(order('READY'), 'IN_PREPARATION'));
    expect(renderErrorBody(ErrorFamily.PointOfSale, error)).toEqual({
      error: error.message,
      message: error.message,
      code: 'ILLEGAL_STATUS_TRANSITION',
      details: error.details,
    });
  });
});
