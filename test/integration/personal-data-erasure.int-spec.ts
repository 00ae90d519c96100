import { jest } from '@jest/globals';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { PersonalDataEraser } from '../../src/personal-data/personal-data-eraser.js';
import { PersonalDataKeys } from '../../src/personal-data/personal-data-keys.js';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';

const ADMIN = { actor: { type: 'user' as const, id: 'dpo', name: 'Data protection officer' }, requestId: null, address: null };

describe('PersonalDataEraser: a person with many orders (integration)', () => {
  let db: IntegrationContext;
  const customer = testCustomer('erasure-many');

  beforeAll(async () => {
    db = await bootIntegration({ imports: [PersonalDataModule, EnrichmentPortsModule], entities: [AuditEventEntity] });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('erases several orders at once, still one transaction per order, and answers the counts of all', async () => {
    const keys = db.get(PersonalDataKeys);
    const orderIds = Array.from({ length: 8 }, (_, n) => `erase-many-${n}`);
    for (const orderId of orderIds) {
      const payload = platformOrder(orderId, 'erasure-store', customer);
      await order(db.dataSource, {
        orderId,
        storeId: 'erasure-store',
        status: 'DELIVERED',
        payload,
        personalDataKeys: keys.keysOf(payload),
      });
    }
    const transactions = db.get(TransactionRunner);
    const run = transactions.run.bind(transactions);
    let inFlight = 0;
    let mostInFlight = 0;
    const spy = jest.spyOn(transactions, 'run').mockImplementation(async (work, isolation) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      try {
        return await run(work, isolation);
      } finally {
        inFlight--;
      }
    });

    const erased = await db.get(PersonalDataEraser).eraseKey(keys.keyOf('email', customer.email), 'data subject request', ADMIN);

    const calls = spy.mock.calls.length;
    spy.mockRestore();
    expect(erased).toMatchObject({ orders: 8, erasedOrders: 8 });
    // Each order in its own transaction (a crash leaves each erased or untouched), several under way at once: before,
    // the 8 ran one after the other.
    expect(calls).toBe(8);
    expect(mostInFlight).toBeGreaterThan(1);
    for (const orderId of orderIds) {
      const stored = await db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
      expect(stored.payload).toMatchObject({ customer: { email: '[erased]', phone: '[erased]' } });
    }
  });
});
