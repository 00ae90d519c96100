import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { In, type DataSource } from 'typeorm';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { enrichedPayloadOf, rowReader } from '../support/rows.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/** The burger's line total of an order's first and second version: a re-send changes it, so each stored row tells which it holds. */
const FIRST_TOTAL = 25.9;
const RESENT_TOTAL = 51.8;

function burgerTotal(order: { order?: { products?: Array<{ price?: { totalPrice?: { total?: number } } }> } }): number | undefined {
  return order.order?.products?.[0]?.price?.totalPrice?.total;
}

/**
 * `kill -9` of the service while it stores orders by group commit (several orders per statement). A 200 is an order
 * committed: every acknowledged order must be there after the crash, with its taxes and its history, and a re-send must
 * never be half applied (its payload from one version and its taxes from the other). The database runs in a process of
 * its own, as in production, so it survives the service.
 */
describe('orders stored together survive a kill -9 of the service', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let databaseUrl: string;
  let db: DataSource;
  const storeId = unique('intake-crash-store');
  const env = () => ({ DATABASE_URL: databaseUrl, JWT_SECRET: 'intake-crash-secret-intake-crash-secret', LOG_LEVEL: 'warn' });
  const version = (orderId: string, total: number) => {
    const body = orderFor(orderId, storeId);
    const [burger, ...others] = body.order!.products!;
    return {
      ...body,
      order: { ...body.order, products: [{ ...burger!, price: { totalPrice: { total } } }, ...others] },
      payments: [{ method: 'PIX', value: total + 6 }],
    };
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'intake-crash-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
    databaseUrl = await database.start();
    db = await rowReader(databaseUrl, [OrderEntity, OrderStatusHistoryEntity]);
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await database?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps every acknowledged order whole, and no order half written', async () => {
    let service: ServiceProcess | undefined = await startServiceProcess(env());
    const acknowledged = new Map<string, number>();
    const sent = new Map<string, number[]>();
    try {
      const http = new HttpClient(service.baseUrl);
      const token = await developmentClientToken(http);
      await seedFiscalData(http, token, storeId);

      let running = true;
      const worker = async (index: number) => {
        for (let sequence = 0; running; sequence++) {
          // Every other worker re-sends an order another worker has had acknowledged, with a new line total.
          const resendable =
            index % 2 === 1 ? [...acknowledged].find(([orderId, total]) => total === FIRST_TOTAL && !sent.get(orderId)![1]) : undefined;
          const orderId = resendable ? resendable[0] : unique(`crash-${index}-${sequence}`);
          const total = resendable ? RESENT_TOTAL : FIRST_TOTAL;
          sent.set(orderId, [...(sent.get(orderId) ?? []), total]);
          try {
            const response = await http.post('/enrich-order', version(orderId, total), { token });
            if (response.status === 200) acknowledged.set(orderId, total);
            else throw new Error(`POST /enrich-order answered ${response.status} before the kill`);
          } catch (error) {
            if (running) throw error;
          }
        }
      };
      const workers = Array.from({ length: 16 }, (_, index) => worker(index));
      await eventually(() => acknowledged.size >= 300, { what: '300 orders acknowledged under load', timeoutMs: 60_000 });
      service.child.kill('SIGKILL');
      running = false;
      await Promise.all(workers);
      await service.stop();
      service = undefined;

      // The load did store orders together: rows written by one statement share its transaction id.
      const shared = await db.query<Array<{ orders: number }>>(
        `SELECT count(*)::int AS orders FROM (SELECT xmin::text FROM orders WHERE store_id = $1 GROUP BY 1 HAVING count(*) > 1) AS statements`,
        [storeId],
      );
      expect(shared[0]!.orders).toBeGreaterThan(0);

      const rows = await db.getRepository(OrderEntity).findBy({ storeId });
      const byOrderId = new Map(rows.map((row) => [row.orderId, row]));
      const lost = [...acknowledged.keys()].filter((orderId) => !byOrderId.has(orderId));
      expect(lost).toEqual([]);
      const histories = await db.getRepository(OrderStatusHistoryEntity).findBy({ orderDbId: In(rows.map((row) => row.id)) });
      for (const row of rows) {
        const stored = burgerTotal(row.payload as ReturnType<typeof version>);
        const taxedFrom = burgerTotal(enrichedPayloadOf(row));
        const history = histories.filter((entry) => entry.orderDbId === row.id).map((entry) => entry.toStatus);
        expect({ orderId: row.orderId, status: row.status, taxedFrom, history }).toEqual({
          orderId: row.orderId,
          status: 'ENRICHED',
          // The payload and its taxes come from the same request.
          taxedFrom: stored,
          // One status change, however many times the order was sent.
          history: ['ENRICHED'],
        });
        // Only a version that was sent; the acknowledged one or a later one.
        expect(sent.get(row.orderId)).toContain(stored);
        if (acknowledged.get(row.orderId) === RESENT_TOTAL) expect([row.orderId, stored]).toEqual([row.orderId, RESENT_TOTAL]);
      }
      process.stdout.write(
        `[intake-crash] acknowledged ${acknowledged.size}, stored ${rows.length}, re-sent ${[...sent.values()].filter((totals) => totals.length > 1).length}, statements with several orders ${shared[0]!.orders}\n`,
      );

      // After a restart, the orders whose answer the crash cut off are sent again and stored once.
      service = await startServiceProcess(env());
      const again = new HttpClient(service.baseUrl);
      const newToken = await developmentClientToken(again);
      const unanswered = [...sent.keys()].filter((orderId) => !acknowledged.has(orderId));
      for (const orderId of unanswered) {
        const response = await again.post('/enrich-order', version(orderId, FIRST_TOTAL), { token: newToken });
        expect([orderId, response.status]).toEqual([orderId, 200]);
      }
      expect(await db.getRepository(OrderEntity).countBy({ storeId })).toBe(sent.size);
    } finally {
      await service?.stop();
    }
  }, 180_000);
});
