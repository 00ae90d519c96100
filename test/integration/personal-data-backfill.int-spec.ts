import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { PersonalDataBackfill } from '../../src/personal-data/personal-data-backfill.js';
import { PersonalDataModule } from '../../src/personal-data/personal-data.module.js';
import { PersonalDataService } from '../../src/personal-data/personal-data.service.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';

describe('PersonalDataBackfill: orders stored before lookup keys are found once it has run (integration)', () => {
  let db: IntegrationContext;
  const customer = testCustomer('backfill');

  beforeAll(async () => {
    db = await bootIntegration({ imports: [PersonalDataModule, EnrichmentPortsModule], entities: [AuditEventEntity] });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('fills the keys of every order without them, in batches, and a rerun finds nothing left', async () => {
    // 501 orders: more than one batch of 500. The factory stores no keys, as the orders stored before them.
    for (let index = 0; index < 501; index++) {
      await order(db.dataSource, {
        orderId: `bf-${index}`,
        storeId: 'bf-store',
        payload: platformOrder(`bf-${index}`, 'bf-store', customer),
      });
    }
    const lookup = () => db.get(PersonalDataService).lookup({ email: customer.email });
    expect((await lookup()).orders).toHaveLength(0);

    expect(await db.get(PersonalDataBackfill).fill()).toBe(501);

    const found = await lookup();
    expect(found.orders).toHaveLength(500);
    expect(found.truncated).toBe(true);
    const unkeyed = await db.dataSource.getRepository(OrderEntity).createQueryBuilder('o').where('o.personal_data_keys IS NULL').getCount();
    expect(unkeyed).toBe(0);
    expect(await db.get(PersonalDataBackfill).fill()).toBe(0);
  });
});
