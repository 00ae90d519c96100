import { REGISTERED_PROFILES } from '../../src/enrichment/marketplaces/registered-profiles.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import {
  ninetyNineFoodOrder,
  openDeliveryOrder,
  rappiOrder,
  taxedStore,
  testCustomer,
  type TestCustomer,
} from '../support/personal-data.js';

interface Lookup {
  orders: Array<{ orderId: string; fields: Array<{ place: string; path: string; value: unknown }> }>;
  fieldLists: Array<{ shape: string; fields: string[] }>;
}

/**
 * The orders of Rappi, 99Food and Open Delivery (their published documents, with a test customer written in): each
 * is found by what its marketplace sends of the customer (e-mail, phone, CPF) and erased completely, every copy of the
 * order left without a customer value. The lists read are each profile's own `personalDataFields`.
 */
describe('personal data of marketplace orders: found and erased by each profile’s fields (e2e)', () => {
  let t: TestApp;
  let admin: string;
  const storeId = `pm-store-${process.pid}`;
  const cases: Array<{ profile: string; orderId: string; customer: TestCustomer; build: typeof rappiOrder; keys: string[] }> = [
    { profile: 'rappi', build: rappiOrder, keys: ['email', 'phone', 'document'] },
    { profile: '99food', build: ninetyNineFoodOrder, keys: ['phone'] },
    { profile: 'opendelivery', build: openDeliveryOrder, keys: ['email', 'phone', 'document'] },
  ].map((entry) => {
    const tag = `pm${entry.profile.replace(/\W/g, '')}${process.pid}`;
    return { ...entry, orderId: `pm-${tag}`, customer: testCustomer(tag) };
  });
  const lookup = (query: string) => t.http.get<Lookup>(`/admin/personal-data?${query}`, { token: admin });
  const queryOf = (key: string, customer: TestCustomer) =>
    key === 'email'
      ? `email=${encodeURIComponent(customer.email)}`
      : key === 'phone'
        ? `phone=${customer.phone.replace(/\D/g, '')}`
        : 'document=52998224725';
  const valuesOf = (customer: TestCustomer) => [customer.name, customer.email, customer.phone, customer.street, customer.postalCode];

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    const orders = await t.tokenFor(['orders']);
    await taxedStore(t, storeId);
    for (const { profile, orderId, customer, build } of cases) {
      const sent = await t.http.post(`/enrich-order?profile=${profile}`, build(orderId, storeId, customer), { token: orders });
      // Stored whether taxed (200) or not (422: no category for the marketplace's products): both statements write the keys.
      expect([200, 422]).toContain(sent.status);
      expect(await t.dataSource.getRepository(OrderEntity).countBy({ orderId })).toBe(1);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the lists it reads: every registered profile’s own personalDataFields', async () => {
    const { fieldLists } = (await lookup(queryOf('phone', cases[0]!.customer))).body;
    for (const profile of REGISTERED_PROFILES) {
      expect(fieldLists).toContainEqual({ shape: profile.name, fields: [...profile.personalDataFields] });
    }
  });

  it.each(['rappi', '99food', 'opendelivery'])('%s: the order is found by each key its customer has', async (profile) => {
    const { orderId, customer, keys } = cases.find((entry) => entry.profile === profile)!;
    for (const key of keys) {
      const found = await lookup(queryOf(key, customer));
      expect({ key, status: found.status }).toEqual({ key, status: 200 });
      const order = found.body.orders.find((entry) => entry.orderId === orderId);
      expect({ key, found: order !== undefined }).toEqual({ key, found: true });
      const values = order!.fields.map((field) => field.value);
      expect(values).toEqual(expect.arrayContaining([customer.name, customer.phone, customer.street]));
    }
  });

  it.each(['rappi', '99food', 'opendelivery'])(
    '%s: an erasure by phone leaves no customer value in any copy of the order',
    async (profile) => {
      const { orderId, customer } = cases.find((entry) => entry.profile === profile)!;
      const erased = await t.http.post<{ orders: number; erasedOrders: number }>(
        '/admin/personal-data/erasure',
        { phone: customer.phone, reason: `test: ${profile} customer asked` },
        { token: admin },
      );
      expect(erased.status).toBe(200);
      expect(erased.body).toMatchObject({ orders: 1, erasedOrders: 1 });
      const row = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
      const stored = JSON.stringify([row.payload, row.enrichedPayload, row.webhookLastResponse]);
      expect(valuesOf(customer).filter((value) => stored.includes(value))).toEqual([]);
      expect(stored).toContain('[erased]');
      expect(row.personalDataKeys ?? []).toEqual([]);
      expect((await lookup(queryOf('phone', customer))).body.orders).toEqual([]);
    },
  );
});
