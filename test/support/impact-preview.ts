import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { fiscalGroup, orderPayload, productCategory } from '../factories/index.js';
import { eventually } from './eventually.js';

const PREPARED_FOOD = '21069090';

/** A group taxing prepared food at 12 % on one store, with `orders` orders of `lines` burger lines each, received in the last hour. */
export async function groupWithOrders(dataSource: DataSource, tag: string, orders: number, lines = 1) {
  const productId = `${tag}-burger`;
  const storeId = `${tag}-store`;
  await productCategory(dataSource, { productId, ncm: PREPARED_FOOD });
  const group = await fiscalGroup(dataSource, {
    stores: [storeId],
    taxMatrix: {
      [PREPARED_FOOD]: {
        NCM: PREPARED_FOOD,
        CEST: '',
        CST_ICMS: '00',
        ICMS_rate: 12,
        CST_PIS: '01',
        PIS_rate: 0.65,
        CST_COFINS: '01',
        COFINS_rate: 3,
      },
    },
  });
  const products = Array.from({ length: lines }, () => ({ productId, quantity: 1, price: { totalPrice: { total: 25.9 } } }));
  const now = Date.now();
  const repository = dataSource.getRepository(OrderEntity);
  for (let first = 0; first < orders; first += 500) {
    const rows = [];
    for (let n = first; n < Math.min(orders, first + 500); n++) {
      const orderId = `${tag}-order-${n}`;
      rows.push(
        repository.create({
          orderId,
          storeId,
          status: 'RECEIVED',
          source: 'integration',
          payload: orderPayload(orderId, storeId, { order: { type: 'DELIVERY', products } }),
          createdAt: new Date(now - 60_000 - n * 100),
        }),
      );
    }
    // One multi-row INSERT per 500 orders: thousands of factory calls would take longer than the test.
    await repository.insert(rows as QueryDeepPartialEntity<OrderEntity>[]);
  }
  return group;
}

/** The proposal of the previews: prepared food from 12 % to 18 %. */
export const RATE_UP = {
  taxMatrix: {
    [PREPARED_FOOD]: {
      NCM: PREPARED_FOOD,
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
    },
  },
};

/**
 * Holds an exclusive lock on the orders table from a connection of its own, so that every statement
 * reading orders waits: previews stay in flight until `release()`. Raw SQL: the test is about how the
 * service's statements behave when the database makes them wait.
 */
export async function holdOrdersTable(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'test: orders table held' });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE orders IN ACCESS EXCLUSIVE MODE');
  const waiting = async () =>
    Number(
      (await client.query<{ count: string }>(`SELECT count(*) FROM pg_locks WHERE relation = 'orders'::regclass AND NOT granted`)).rows[0]!
        .count,
    );
  return {
    /** Statements waiting for the table now. */
    waiting,
    /** Waits until `count` statements wait for the table. */
    untilWaiting: (count: number) =>
      eventually(async () => (await waiting()) === count, { what: `${count} statements waiting for orders` }),
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}
