import { OrderEntity } from '../../src/orders/order.entity.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { ifoodOrder, newOrderBody, platformOrder, taxedStore, testCustomer } from '../support/personal-data.js';

interface Lookup {
  orders: Array<{ orderId: string; fields: Array<{ place: string; path: string; value: unknown }> }>;
  truncated: boolean;
  fieldLists: Array<{ shape: string; fields: string[] }>;
}
interface ErrorBody {
  error: string;
  message: string;
  details: Array<{ field: string; problem: string }>;
}

describe('GET /api/admin/personal-data: a person’s orders through keyed hashes (e2e)', () => {
  let t: TestApp;
  let admin: string;
  const tag = `lookup${process.pid}`;
  const customer = testCustomer(tag);
  const other = testCustomer(`${tag}other`);
  const taxedStoreId = `pd-taxed-${process.pid}`;
  const ids = { taxed: `pd-taxed-${tag}`, untaxed: `pd-untaxed-${tag}`, webhook: `pd-webhook-${tag}`, ifood: `pd-ifood-${tag}` };
  const lookup = (query: string) => t.http.get<Lookup & ErrorBody>(`/admin/personal-data?${query}`, { token: admin });

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    const orders = await t.tokenFor(['orders']);
    const platform = await t.tokenFor(['platform']);
    await taxedStore(t, taxedStoreId);
    const sends = [
      await t.http.post('/enrich-order', platformOrder(ids.taxed, taxedStoreId, customer), { token: orders }),
      // No fiscal group: stored as ENRICHMENT_FAILED, by the untaxed statement.
      await t.http.post('/enrich-order', platformOrder(ids.untaxed, `pd-nogroup-${process.pid}`, customer), { token: orders }),
      await t.http.post('/domain-cliente/webhook/new-order', newOrderBody(ids.webhook, taxedStoreId, customer), { token: platform }),
      await t.http.post('/enrich-order?profile=ifood', ifoodOrder(ids.ifood, taxedStoreId, customer), { token: orders }),
      await t.http.post('/enrich-order', platformOrder(`pd-other-${tag}`, taxedStoreId, other), { token: orders }),
    ];
    expect(sends.map((send) => send.status)).toEqual([200, 422, 200, 200, 200]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('finds every order of the e-mail, in any case, with each personal field held (place, path, value)', async () => {
    const found = await lookup(`email=${encodeURIComponent(customer.email.toUpperCase())}`);
    expect(found.status).toBe(200);
    expect(found.body.orders.map((order) => order.orderId).sort()).toEqual([ids.taxed, ids.untaxed, ids.webhook].sort());
    const taxed = found.body.orders.find((order) => order.orderId === ids.taxed)!;
    expect(taxed.fields).toEqual(
      expect.arrayContaining([
        { place: 'payload', path: 'customer.email', value: customer.email.toUpperCase() },
        { place: 'payload', path: 'delivery.address.streetName', value: customer.street },
        { place: 'enrichedPayload', path: 'customer.documentNumber', value: customer.documentNumber },
      ]),
    );
    expect(found.body.truncated).toBe(false);
    expect(found.body.fieldLists.map((list) => list.shape)).toEqual(expect.arrayContaining(['standard', 'new-order-webhook', 'ifood']));
  });

  it('finds the phone by its digits, with or without the country code, and the CPF with or without punctuation', async () => {
    const national = customer.phone.replace(/\D/g, '').slice(2);
    const byPhone = await lookup(`phone=${national}`);
    expect(byPhone.body.orders.map((order) => order.orderId).sort()).toEqual([ids.taxed, ids.untaxed, ids.webhook, ids.ifood].sort());
    const byDocument = await lookup('document=52998224725');
    const documentOrders = byDocument.body.orders.map((order) => order.orderId);
    expect(documentOrders).toEqual(expect.arrayContaining([ids.taxed, ids.untaxed, ids.ifood]));
    // The iFood document is kept under sourceOrder: its fields are found there.
    const ifood = byDocument.body.orders.find((order) => order.orderId === ids.ifood)!;
    expect(ifood.fields).toEqual(
      expect.arrayContaining([{ place: 'payload', path: 'sourceOrder.customer.documentNumber', value: customer.documentNumber }]),
    );
  });

  it('writes the keys with the order, so no order of another person is answered', async () => {
    const stored = await t.dataSource
      .getRepository(OrderEntity)
      .createQueryBuilder('o')
      .select(['o.orderId', 'o.personalDataKeys'])
      .where('o.orderId IN (:...ids)', { ids: Object.values(ids) })
      .getMany();
    expect(stored).toHaveLength(4);
    for (const order of stored) expect(order.personalDataKeys?.length).toBeGreaterThan(0);
    const others = await lookup(`email=${encodeURIComponent(other.email)}`);
    expect(others.body.orders.map((order) => order.orderId)).toEqual([`pd-other-${tag}`]);
  });

  it.each([
    ['no key', '', 'email'],
    ['two keys', `email=a%40example.com&phone=11987654321`, 'phone'],
    ['a malformed e-mail', 'email=not-an-email', 'email'],
    ['a CPF whose check digits do not hold', 'document=529.982.247-24', 'document'],
    ['a phone of too few digits', 'phone=1234', 'phone'],
  ])('400 naming the field for %s, without repeating the value', async (_case, query, field) => {
    const refused = await lookup(query);
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((detail) => detail.field)).toContain(field);
    expect(JSON.stringify(refused.body)).not.toMatch(/529\.982\.247-24|not-an-email/);
  });

  it('is for admins only', async () => {
    const orders = await t.tokenFor(['orders']);
    expect((await t.http.get(`/admin/personal-data?email=${encodeURIComponent(customer.email)}`, { token: orders })).status).toBe(403);
  });
});
