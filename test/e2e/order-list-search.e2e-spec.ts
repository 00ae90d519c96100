import { OrderMarketplaceNumber1763967300000 } from '../../migrations/1763967300000-OrderMarketplaceNumber.js';
import { IFOOD_ORDER_EXAMPLE } from '../../src/enrichment/ifood/ifood-order-example.js';
import { NINETY_NINE_FOOD_ORDER_EXAMPLE } from '../../src/enrichment/ninety-nine-food/ninety-nine-food-order-example.js';
import { KEETA_ORDER_EXAMPLE, OPEN_DELIVERY_ORDER_EXAMPLE } from '../../src/enrichment/open-delivery/open-delivery-order-example.js';
import { RAPPI_ORDER_EXAMPLE } from '../../src/enrichment/rappi/rappi-order-example.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Schemas } from '../support/api.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type Page = Schemas['OrderPageDto'];
const clone = <T>(value: T): T => structuredClone(value);

/**
 * The list's marketplace order number and its search box (`q`): each marketplace's order as its profile stores it,
 * and who may search customers.
 */
describe('GET /api/admin/orders: marketplace order number and the search box (e2e)', () => {
  let t: TestApp;
  const store = `search-store-${process.pid}`;
  const customer = testCustomer(`search${process.pid}`);
  const ids = {
    ifood: `ifood-${process.pid}`,
    rappi: `7${process.pid}01`,
    ninetyNine: `11529215471539${process.pid}`.slice(0, 19),
    openDelivery: `od-${process.pid}`,
    keeta: `keeta-${process.pid}`,
    platform: `platform-${process.pid}`,
  };
  const displayIds = { ifood: '4711', openDelivery: '90210', keeta: '5150' };
  const list = async (query: Record<string, string>, token?: string) =>
    ok(await (token ? t.apiAs(token) : t.api).GET('/api/admin/orders', { params: { query } }), 200);
  const orderIdsOf = (page: Page) => page.items.map((item) => item.orderId).sort();

  beforeAll(async () => {
    t = await bootTestApp();
    const orders = await t.tokenFor(['orders']);
    const ifood = { ...clone(IFOOD_ORDER_EXAMPLE), id: ids.ifood, displayId: displayIds.ifood, merchant: { id: store } };
    const rappi = clone(RAPPI_ORDER_EXAMPLE) as Record<string, any>;
    rappi.order_detail.order_id = ids.rappi;
    const ninetyNine = clone(NINETY_NINE_FOOD_ORDER_EXAMPLE) as Record<string, any>;
    ninetyNine.data.order_id = ids.ninetyNine;
    ninetyNine.data.order_info.order_id = ids.ninetyNine;
    const openDelivery = { ...clone(OPEN_DELIVERY_ORDER_EXAMPLE), id: ids.openDelivery, displayId: displayIds.openDelivery };
    const keeta = {
      ...clone(KEETA_ORDER_EXAMPLE),
      data: { ...clone(OPEN_DELIVERY_ORDER_EXAMPLE), id: ids.keeta, displayId: displayIds.keeta },
    };
    const sends = [
      await t.http.post('/enrich-order?profile=ifood', ifood, { token: orders }),
      await t.http.post('/enrich-order?profile=rappi', rappi, { token: orders }),
      await t.http.post('/enrich-order?profile=99food', ninetyNine, { token: orders }),
      await t.http.post('/enrich-order?profile=opendelivery', openDelivery, { token: orders }),
      await t.http.post('/enrich-order?profile=keeta', keeta, { token: orders }),
      // The platform's own order says it came from iFood, and carries the iFood short number as a field of its own: neither makes it a marketplace's number.
      await t.http.post(
        '/enrich-order',
        { ...platformOrder(ids.platform, store, customer), source: 'ifood', displayId: displayIds.ifood },
        { token: orders },
      ),
    ];
    // Stored taxed (200) or, without a fiscal group, as ENRICHMENT_FAILED (422): either way with its number.
    expect(sends.map((send) => [200, 422].includes(send.status))).toEqual([true, true, true, true, true, true]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists each order with its marketplace (source) and the marketplace’s own number', async () => {
    const page = await list({ pageSize: '100' });
    const numbers = Object.fromEntries(page.items.map((item) => [item.orderId, [item.source, item.marketplaceOrderNumber]]));
    expect(numbers).toEqual({
      [ids.ifood]: ['ifood', displayIds.ifood],
      [ids.rappi]: ['rappi', ids.rappi],
      [ids.ninetyNine]: ['99food', ids.ninetyNine],
      [ids.openDelivery]: ['opendelivery', displayIds.openDelivery],
      [ids.keeta]: ['keeta', displayIds.keeta],
      [ids.platform]: ['ifood', null],
    });
    const detail = ok(await t.api.GET('/api/admin/orders/{id}', { params: { path: { id: ids.ifood } } }), 200);
    expect(detail.marketplaceOrderNumber).toBe(displayIds.ifood);
  });

  it('filters by marketplace through source', async () => {
    expect(orderIdsOf(await list({ source: 'keeta' }))).toEqual([ids.keeta]);
    expect(orderIdsOf(await list({ source: 'ifood' }))).toEqual([ids.ifood, ids.platform].sort());
  });

  it('q finds an order by the marketplace’s short number, its orderId, its internal id or its store', async () => {
    const byShortNumber = await list({ q: displayIds.ifood });
    expect(orderIdsOf(byShortNumber)).toEqual([ids.ifood]);
    expect(byShortNumber.total).toBe(1);
    expect(orderIdsOf(await list({ q: ` ${displayIds.openDelivery} ` }))).toEqual([ids.openDelivery]);
    expect(orderIdsOf(await list({ q: ids.rappi }))).toEqual([ids.rappi]);
    expect(orderIdsOf(await list({ q: ids.platform }))).toEqual([ids.platform]);
    const internal = (await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId: ids.keeta })).id;
    expect(orderIdsOf(await list({ q: internal }))).toEqual([ids.keeta]);
    // The iFood order's store is the mapped merchant.id; the platform's order has the same store.
    expect(orderIdsOf(await list({ q: store }))).toEqual([ids.ifood, ids.platform].sort());
    // Exact matches only: a part of the short number is not a number.
    expect((await list({ q: displayIds.ifood.slice(0, 3) })).total).toBe(0);
    // Combined (AND) with the other filters.
    expect(orderIdsOf(await list({ q: store, source: 'ifood', orderId: 'platform' }))).toEqual([ids.platform]);
  });

  it('q finds a customer’s orders by e-mail, phone or CPF for an admin, client or person', async () => {
    const adminPerson = await signedInPerson(t, 'admin');
    const asAdminPerson = (q: string) => t.http.get<Page>(`/admin/orders?q=${encodeURIComponent(q)}`, asPerson(adminPerson));
    for (const q of [customer.email.toLowerCase(), customer.phone, customer.documentNumber]) {
      expect(orderIdsOf(await list({ q }))).toEqual([ids.platform]);
      const answer = await asAdminPerson(q);
      expect([answer.status, orderIdsOf(answer.body)]).toEqual([200, [ids.platform]]);
    }
  });

  it.each(['support', 'fiscal'] as const)('q never finds a customer for a %s person, whatever the text', async (role) => {
    const person = await signedInPerson(t, role);
    for (const q of [customer.email, customer.phone, customer.documentNumber]) {
      const answer = await t.http.get<Page>(`/admin/orders?q=${encodeURIComponent(q)}`, asPerson(person));
      expect([q, answer.status, answer.body.total, answer.body.items]).toEqual([q, 200, 0, []]);
    }
    // The same person's search still finds the order by its own identifiers.
    const byNumber = await t.http.get<Page>(`/admin/orders?q=${displayIds.ifood}`, asPerson(person));
    expect(orderIdsOf(byNumber.body)).toEqual([ids.ifood]);
  });

  it('refuses a blank or too long q', async () => {
    const blank = failed(await t.api.GET('/api/admin/orders', { params: { query: { q: '   ' } } }), 400);
    expect(blank.details).toEqual([{ field: 'q', problem: 'must not be blank' }]);
    const long = failed(await t.api.GET('/api/admin/orders', { params: { query: { q: 'x'.repeat(101) } } }), 400);
    expect(long.details?.[0]?.field).toBe('q');
  });

  it('the migration fills the number of the orders stored before it, from the document each kept', async () => {
    // Raw schema change: this test is about the migration itself, run again on the file's own database.
    const migration = new OrderMarketplaceNumber1763967300000();
    const runner = t.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      // The entity has the column the migration removed: these orders are written as the service wrote them before it.
      const insert = async (orderId: string, source: string, payload: Record<string, unknown>) =>
        (
          await runner.query(`INSERT INTO orders (order_id, status, payload, source) VALUES ($1, 'RECEIVED', $2, $3) RETURNING id`, [
            orderId,
            JSON.stringify({ orderId, source, ...payload }),
            source,
          ])
        )[0].id as string;
      const before = {
        ifood: await insert(`old-ifood-${process.pid}`, 'ifood', { sourceOrder: { id: 'x', displayId: 8086 } }),
        rappi: await insert(`old-rappi-${process.pid}`, 'rappi', { sourceOrder: { order_detail: { order_id: 'x' } } }),
        platform: await insert(`old-site-${process.pid}`, 'ifood', { displayId: '8087' }),
      };
      await migration.up(runner);
      const stored = await t.dataSource
        .getRepository(OrderEntity)
        .findBy([{ id: before.ifood }, { id: before.rappi }, { id: before.platform }]);
      const numbers = Object.fromEntries(stored.map((row) => [row.orderId, row.marketplaceOrderNumber]));
      expect(numbers).toEqual({
        [`old-ifood-${process.pid}`]: '8086',
        [`old-rappi-${process.pid}`]: `old-rappi-${process.pid}`,
        [`old-site-${process.pid}`]: null,
      });
      // And the orders stored since keep theirs, found again through the rebuilt index.
      expect(orderIdsOf(await list({ q: '8086' }))).toEqual([`old-ifood-${process.pid}`]);
      expect(orderIdsOf(await list({ q: displayIds.keeta }))).toEqual([ids.keeta]);
    } finally {
      await runner.release();
    }
  });
});
