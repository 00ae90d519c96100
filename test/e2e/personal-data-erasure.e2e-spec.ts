import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { webhookDelivery } from '../factories/index.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { ifoodOrder, newOrderBody, platformOrder, taxedStore, testCustomer } from '../support/personal-data.js';

interface Erasure {
  orders: number;
  erasedOrders: number;
  payloadFields: number;
  enrichedPayloadFields: number;
  deliveryLogRows: number;
}

describe('POST /api/admin/personal-data/erasure: a person’s data erased, the fiscal record kept (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let orders: string;
  const tag = `erase${process.pid}`;
  const customer = testCustomer(tag);
  const other = testCustomer(`${tag}keep`);
  const storeId = `pe-store-${process.pid}`;
  const ids = { taxed: `pe-taxed-${tag}`, webhook: `pe-webhook-${tag}`, ifood: `pe-ifood-${tag}`, other: `pe-other-${tag}` };
  const erase = (body: unknown) =>
    t.http.post<Erasure & { details?: Array<{ field: string }> }>('/admin/personal-data/erasure', body, { token: admin });
  const row = (orderId: string) => t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
  const customerValues = [
    customer.email,
    customer.email.toUpperCase(),
    customer.name,
    customer.phone,
    customer.street,
    customer.postalCode,
    customer.id,
  ];

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    const platform = await t.tokenFor(['platform']);
    await taxedStore(t, storeId);
    const sends = [
      await t.http.post('/enrich-order', platformOrder(ids.taxed, storeId, customer), { token: orders }),
      await t.http.post('/domain-cliente/webhook/new-order', newOrderBody(ids.webhook, storeId, customer), { token: platform }),
      await t.http.post('/enrich-order?profile=ifood', ifoodOrder(ids.ifood, storeId, customer), { token: orders }),
      await t.http.post('/enrich-order', platformOrder(ids.other, storeId, other), { token: orders }),
    ];
    expect(sends.map((send) => send.status)).toEqual([200, 200, 200, 200]);
    // A receiver that echoed the order: its answer is in the delivery log.
    const taxed = await row(ids.taxed);
    await webhookDelivery(t.dataSource, {
      orderDbId: taxed.id,
      attempt: 1,
      responseBody: `{"received":{"email":"${customer.email.toUpperCase()}","name":"${customer.name}"},"total":25.9}`,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('replaces every personal field in every copy with the marker, keeps items, amounts, taxes and statuses, and answers the counts', async () => {
    const before = await row(ids.taxed);
    const erased = await erase({ phone: customer.phone, reason: 'LGPD request 2026-114' });
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ orders: 3, erasedOrders: 3, deliveryLogRows: 1 });
    expect(erased.body.payloadFields).toBeGreaterThanOrEqual(3 * 3);
    expect(erased.body.enrichedPayloadFields).toBeGreaterThanOrEqual(2 * 3);

    const after = await row(ids.taxed);
    const text = JSON.stringify([after.payload, after.enrichedPayload, await row(ids.webhook), await row(ids.ifood)]);
    for (const value of customerValues) expect(text).not.toContain(value);
    expect(after.payload).toMatchObject({
      customer: { email: '[erased]', name: '[erased]' },
      delivery: { address: { streetName: '[erased]' } },
    });
    expect((await row(ids.ifood)).payload).toMatchObject({ sourceOrder: { customer: { documentNumber: '[erased]' } } });
    // The fiscal record stays: items, amounts, taxes, status.
    expect(after.status).toBe(before.status);
    expect(after.payload.order).toEqual(before.payload.order);
    expect(after.enrichedPayload!.taxSummary).toEqual(before.enrichedPayload!.taxSummary);
    expect(after.personalDataErasedAt).not.toBeNull();

    const log = await t.dataSource.getRepository(WebhookDeliveryEntity).findOneByOrFail({ orderDbId: after.id });
    expect(log.responseBody).toBe('{"received":{"email":"[erased]","name":"[erased]"},"total":25.9}');
    // Another customer's order is untouched.
    expect((await row(ids.other)).payload).toMatchObject({ customer: { name: other.name } });
  });

  it('is audited with the reason and the counts, never the data', async () => {
    const events = await t.dataSource.getRepository(AuditEventEntity).findBy({ action: 'order.personal-data.erase' });
    expect(events.map((event) => event.targetId).sort()).toEqual([ids.taxed, ids.webhook, ids.ifood].sort());
    expect(events[0]!.changes).toMatchObject({ reason: { after: 'LGPD request 2026-114' } });
    const text = JSON.stringify(events);
    for (const value of [...customerValues, customer.phone.replace(/\D/g, '')]) expect(text).not.toContain(value);
  });

  it('is idempotent: a rerun finds nothing left and changes nothing', async () => {
    const rerun = await erase({ email: customer.email, reason: 'again' });
    expect(rerun.status).toBe(200);
    expect(rerun.body).toEqual({ orders: 0, erasedOrders: 0, payloadFields: 0, enrichedPayloadFields: 0, deliveryLogRows: 0 });
  });

  it('a re-send stores the new payload but never brings the data back into the older copies', async () => {
    expect((await t.http.post('/enrich-order', platformOrder(ids.taxed, storeId, customer), { token: orders })).status).toBe(200);
    const resent = await row(ids.taxed);
    expect(resent.payload).toMatchObject({ customer: { name: customer.name } });
    const log = await t.dataSource.getRepository(WebhookDeliveryEntity).findOneByOrFail({ orderDbId: resent.id });
    expect(log.responseBody).not.toContain(customer.name);
  });

  it.each([
    ['no key', { reason: 'x' }, 'email'],
    ['two keys', { email: 'a@example.com', document: '52998224725', reason: 'x' }, 'document'],
    ['a CPF whose check digits do not hold', { document: '52998224724', reason: 'x' }, 'document'],
    ['no reason', { email: 'a@example.com' }, 'reason'],
  ])('400 naming the field for %s, nothing erased', async (_case, body, field) => {
    const refused = await erase(body);
    expect(refused.status).toBe(400);
    expect(refused.body.details!.map((detail) => detail.field)).toContain(field);
    expect((await row(ids.other)).payload).toMatchObject({ customer: { name: other.name } });
  });
});
