import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { In, type DataSource } from 'typeorm';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import type { AppConfig } from '../../src/config/app-config.js';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import { PersonalDataKeys } from '../../src/personal-data/personal-data-keys.js';
import { order } from '../factories/index.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';
import { rowReader } from '../support/rows.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const KEY = '3c9f1a7e5d2b8046f1e3a5c7d9b0e2f4a6c8e0d2';
const ORDERS = 400;

/**
 * `kill -9` of the service in the middle of an erasure: each order is erased in a transaction of its own, so every
 * order is then either wholly erased (payloads, keys, the erasure's instant, its audit event) or wholly untouched, and
 * a rerun after a restart erases exactly the rest. The database runs in a process of its own, so it survives.
 */
describe('an erasure survives a kill -9 of the service', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let databaseUrl: string;
  let db: DataSource | undefined;
  const customer = testCustomer(`crash${process.pid}`);
  const env = () => ({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'erasure-crash-secret-erasure-crash-secret',
    PERSONAL_DATA_KEY: KEY,
    LOG_LEVEL: 'warn',
  });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'erasure-crash-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
    databaseUrl = await database.start();
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await database?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('leaves every order erased or untouched, and a rerun erases the rest', async () => {
    let service: ServiceProcess | undefined = await startServiceProcess(env());
    try {
      db = await rowReader(databaseUrl, [OrderEntity, OrderStatusHistoryEntity, AuditEventEntity]);
      // The platform's payload: the built-in lists are enough, no marketplace profile's is needed.
      const keys = new PersonalDataKeys({ personalDataKey: KEY } as AppConfig, { lists: [] });
      for (let index = 0; index < ORDERS; index++) {
        const orderId = `crash-erase-${index}`;
        const payload = platformOrder(orderId, 'crash-store', customer);
        await order(db, {
          orderId,
          storeId: 'crash-store',
          payload,
          enrichedPayload: { ...payload, taxSummary: { totals: { total_tax: 1 } } },
          personalDataKeys: keys.keysOf(payload),
        });
      }
      const http = new HttpClient(service.baseUrl);
      const token = await developmentClientToken(http);
      const cut = http
        .post('/admin/personal-data/erasure', { email: customer.email, reason: 'crash test' }, { token })
        .catch(() => undefined);
      const audited = () => db!.getRepository(AuditEventEntity).countBy({ action: 'order.personal-data.erase' });
      await eventually(async () => expect(await audited()).toBeGreaterThanOrEqual(20), {
        what: 'the erasure under way',
        timeoutMs: 60_000,
      });
      service.child.kill('SIGKILL');
      await cut;
      await service.stop();
      service = undefined;

      const rows = await db.getRepository(OrderEntity).find({
        where: { storeId: 'crash-store' },
        select: { id: true, orderId: true, payload: true, enrichedPayload: true, personalDataKeys: true, personalDataErasedAt: true },
      });
      expect(rows).toHaveLength(ORDERS);
      const erased = rows.filter((row) => row.personalDataErasedAt !== null);
      for (const row of rows) {
        const text = JSON.stringify([row.payload, row.enrichedPayload]);
        if (row.personalDataErasedAt !== null) {
          expect([row.orderId, text.includes(customer.name) || text.includes(customer.street), row.personalDataKeys]).toEqual([
            row.orderId,
            false,
            [],
          ]);
        } else {
          expect([
            row.orderId,
            text.includes(customer.name) && text.includes(customer.street),
            text.includes('[erased]'),
            row.personalDataKeys!.length,
          ]).toEqual([row.orderId, true, false, 3]);
        }
      }
      // Each erased order has its audit event, committed with it; no other has one.
      const events = await db
        .getRepository(AuditEventEntity)
        .findBy({ action: 'order.personal-data.erase', targetId: In(rows.map((row) => row.orderId)) });
      expect(events.map((event) => event.targetId).sort()).toEqual(erased.map((row) => row.orderId).sort());
      expect(erased.length).toBeGreaterThan(0);
      expect(erased.length).toBeLessThan(ORDERS);
      process.stdout.write(`[erasure-crash] erased ${erased.length} of ${ORDERS} before the kill\n`);

      service = await startServiceProcess(env());
      const again = new HttpClient(service.baseUrl);
      const rerun = await again.post<{ orders: number; erasedOrders: number }>(
        '/admin/personal-data/erasure',
        { email: customer.email, reason: 'crash test, rerun' },
        { token: await developmentClientToken(again) },
      );
      expect(rerun.status).toBe(200);
      expect(rerun.body).toMatchObject({ orders: ORDERS - erased.length, erasedOrders: ORDERS - erased.length });
      const left = await db
        .getRepository(OrderEntity)
        .createQueryBuilder('o')
        .where('o.store_id = :store AND o.personal_data_erased_at IS NULL', { store: 'crash-store' })
        .getCount();
      expect(left).toBe(0);
    } finally {
      await service?.stop();
    }
  }, 180_000);
});
