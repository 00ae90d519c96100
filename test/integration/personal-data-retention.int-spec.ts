import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { PersonalDataKeys } from '../../src/personal-data/personal-data-keys.js';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module.js';
import { PersonalDataRetention } from '../../src/personal-data/personal-data-retention.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('PersonalDataRetention: orders past PERSONAL_DATA_RETENTION_DAYS lose their personal data (integration)', () => {
  let db: IntegrationContext;
  const customer = testCustomer('retention');

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [PersonalDataModule, EnrichmentPortsModule],
      env: { PERSONAL_DATA_RETENTION_DAYS: '30' },
      entities: [AuditEventEntity],
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
});
