import { jest } from '@jest/globals';
import { In } from 'typeorm';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { PersonalDataKeys } from '../../src/personal-data/personal-data-keys.js';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module.js';
import { PersonalDataRetention } from '../../src/personal-data/personal-data-retention.js';
import { TransactionRunner } from '../../src/database/transaction-runner.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhookRetryJobEntity } from '../../src/webhooks/webhook-retry-job.entity.js';
import { WebhooksPortsModule } from '../../src/webhooks/webhooks-ports.module.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('PersonalDataRetention: orders past PERSONAL_DATA_RETENTION_DAYS lose their personal data (integration)', () => {
  let db: IntegrationContext;
  const customer = testCustomer('retention');

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [PersonalDataModule, EnrichmentPortsModule, WebhooksPortsModule],
      env: { PERSONAL_DATA_RETENTION_DAYS: '30' },
      entities: [AuditEventEntity, WebhookDeliveryEntity, WebhookRetryJobEntity],
    });
  });
  afterAll(async () => {
    await db?.close();
  });

  const stored = async (orderId: string, ageDays: number) => {
    const payload = platformOrder(orderId, 'retention-store', customer);
    const keys = db.get(PersonalDataKeys).keysOf(payload);
    return order(db.dataSource, {
      orderId,
      storeId: 'retention-store',
      status: 'DELIVERED',
      payload,
      enrichedPayload: { ...payload, taxSummary: { totals: { total_tax: 5.61 } } },
      personalDataKeys: keys,
      createdAt: new Date(Date.now() - ageDays * DAY_MS),
    });
  };
  const row = (orderId: string) => db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });

  it('erases the personal fields of older orders only, keeps their fiscal record and status, and counts them', async () => {
    await stored('ret-old-1', 45);
    await stored('ret-old-2', 31);
    await stored('ret-recent', 29);
    const counter = async () =>
      (await db.get(MetricsService).registry.getSingleMetric('personal_data_retention_erased_orders_total')!.get()).values[0]?.value ?? 0;
    const before = await counter();

    expect(await db.get(PersonalDataRetention).erasePastRetention()).toBe(2);

    for (const orderId of ['ret-old-1', 'ret-old-2']) {
      const erased = await row(orderId);
      expect(erased.payload).toMatchObject({
        customer: { name: '[erased]', email: '[erased]' },
        order: platformOrder(orderId, 'x', customer).order,
      });
      expect(erased.enrichedPayload).toMatchObject({ taxSummary: { totals: { total_tax: 5.61 } }, customer: { phone: '[erased]' } });
      expect(erased.status).toBe('DELIVERED');
      expect(erased.personalDataErasedAt).not.toBeNull();
    }
    expect((await row('ret-recent')).payload).toMatchObject({ customer: { name: customer.name } });
    expect((await counter()) - before).toBe(2);
    // A second round finds nothing left.
    expect(await db.get(PersonalDataRetention).erasePastRetention()).toBe(0);
  });

  it('erases the orders of a round together, one transaction for up to 100 of them, each in every copy and audited on its own', async () => {
    const orderIds = ['ret-batch-1', 'ret-batch-2', 'ret-batch-3'];
    const orders = [];
    for (const orderId of orderIds) orders.push(await stored(orderId, 60));
    // The receiver echoed the first order's customer e-mail (as the payload holds it) into its answer.
    const echoed = platformOrder('x', 'x', customer).customer.email;
    await db.dataSource.query(
      `INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, attempted_at)
       VALUES ($1, 1, 'forward', 'msg_retention', 'https://pos.example/hooks', '{}'::jsonb, 400, $2, 12, now())`,
      [orders[0]!.id, `{"error":"unknown customer ${echoed}"}`],
    );
    const transactions = jest.spyOn(db.get(TransactionRunner), 'run');

    expect(await db.get(PersonalDataRetention).erasePastRetention()).toBe(3);

    // Before: one transaction (a commit and five statements) per order, a few hundred orders a second at best.
    expect(transactions).toHaveBeenCalledTimes(1);
    transactions.mockRestore();
    for (const orderId of orderIds) {
      const erased = await row(orderId);
      expect(erased.payload).toMatchObject({ customer: { name: '[erased]', email: '[erased]', phone: '[erased]' } });
      const [{ keys }] = (await db.dataSource.query('SELECT personal_data_keys AS keys FROM orders WHERE order_id = $1', [orderId])) as [
        { keys: string[] },
      ];
      expect(keys).toEqual([]);
      expect(erased.personalDataErasedAt).not.toBeNull();
    }
    const delivery = await db.dataSource.getRepository(WebhookDeliveryEntity).findOneByOrFail({ orderDbId: orders[0]!.id });
    expect(delivery.responseBody).toBe('{"error":"unknown customer [erased]"}');
    const events = await db.dataSource
      .getRepository(AuditEventEntity)
      .find({ where: { action: 'order.personal-data.erase', targetId: In(orderIds) }, order: { targetId: 'ASC' } });
    expect(events.map((event) => [event.targetId, event.changes.deliveryLogRows])).toEqual([
      ['ret-batch-1', { before: 1, after: 0 }],
      ['ret-batch-2', { before: 0, after: 0 }],
      ['ret-batch-3', { before: 0, after: 0 }],
    ]);
    expect(JSON.stringify(events)).not.toContain(customer.name);
  });
});
