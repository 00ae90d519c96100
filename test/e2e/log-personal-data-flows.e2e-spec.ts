import { createTestDatabase } from '../setup/test-database.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { fiscalMatrix, seedFiscalData } from '../support/orders.js';
import {
  newOrderBody,
  ninetyNineFoodOrder,
  openDeliveryOrder,
  platformOrder,
  rappiOrder,
  testCustomer,
  type TestCustomer,
} from '../support/personal-data.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

type Json = Record<string, any>;

/**
 * Never outside the order, over a broad set of flows: a running service at `LOG_LEVEL=trace` forwards orders to a
 * receiver that fails echoing the order back, takes the new-order webhook and three marketplaces' orders, redelivers,
 * previews a fiscal change's impact, answers lookups and reveals and erases. Then the whole log, the metrics text, the
 * audit log (every event's before/after) and, after the erasure, the webhook delivery log's excerpts are searched for
 * the customers' names, e-mails, phones, CPFs and addresses.
 */
describe('personal data stays in the order, whatever the flow (e2e)', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: ServiceProcess;
  let receiver: WebhookReceiver;
  const customers = ['fwd', 'hook', 'rappi', 'food', 'od'].map((name) => testCustomer(`flow${name}${process.pid}`));
  const [forwarded, hooked, rappi, food, openDelivery] = customers as [
    TestCustomer,
    TestCustomer,
    TestCustomer,
    TestCustomer,
    TestCustomer,
  ];
  const valuesOf = (customer: TestCustomer) => [
    customer.email,
    customer.email.toUpperCase(),
    customer.name,
    customer.phone,
    customer.phone.replace(/\D/g, ''),
    customer.street,
    customer.postalCode,
    customer.id,
  ];
  const leaksIn = (text: string) =>
    customers
      .flatMap(valuesOf)
      .filter(
        (value) => text.includes(value) || text.includes(encodeURIComponent(value)) || text.includes(JSON.stringify(value).slice(1, -1)),
      );

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // The receiver fails, echoing what it was sent: the service keeps its answer as the order's copy, and logs the failure.
    receiver.fallback = (request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(request.body);
    };
    database = await createTestDatabase();
    service = await startServiceProcess(
      { DATABASE_URL: database.url, LOG_LEVEL: 'trace', ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_ENABLED: 'false' },
      150_000,
    );
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await database?.drop();
  });

  it('writes none of the customers’ values to the log, the metrics, the audit log or the erased delivery log', async () => {
    const http = new HttpClient(service.baseUrl);
    const token = await developmentClientToken(http);
    const storeId = `flow-store-${process.pid}`;
    await seedFiscalData(http, token, storeId);
    const groups = await http.get<Json>('/admin/fiscal-groups?pageSize=100', { token });
    const group = { body: (groups.body.items as Json[]).find((entry) => entry.name === `Group of ${storeId}`)! };
    expect(group.body).toBeDefined();

    const ids = { forwarded: `flow-fwd-${process.pid}` };
    const answers = [
      await http.post('/enrich-order-forward', platformOrder(ids.forwarded, storeId, forwarded), { token }),
      await http.post(`/admin/orders/${ids.forwarded}/redeliver`, {}, { token }),
      await http.post('/domain-cliente/webhook/new-order', newOrderBody(`flow-hook-${process.pid}`, storeId, hooked), { token }),
      await http.post('/enrich-order-forward?profile=rappi', rappiOrder(`flow-rappi-${process.pid}`, storeId, rappi), { token }),
      await http.post('/enrich-order?profile=99food', ninetyNineFoodOrder(`flow-food-${process.pid}`, storeId, food), { token }),
      await http.post('/enrich-order?profile=opendelivery', openDeliveryOrder(`flow-od-${process.pid}`, storeId, openDelivery), { token }),
      await http.post(
        `/admin/fiscal-groups/${group.body.id}/impact`,
        { stores: [{ store_id: storeId, store_name: storeId }], taxMatrix: fiscalMatrix(12) },
        { token },
      ),
      await http.get(`/admin/personal-data?phone=${encodeURIComponent(rappi.phone)}`, { token }),
      await http.post(`/admin/personal-data/orders/${ids.forwarded}/reveal`, {}, { token }),
    ];
    // The forwards fail at the receiver (502), and are stored all the same.
    expect(answers.map((answer) => answer.status)).toEqual([502, 502, 200, 502, expect.any(Number), expect.any(Number), 200, 200, 200]);
    expect(receiver.requests.length).toBeGreaterThanOrEqual(3);
    // The impact preview reads these orders and answers figures only.
    expect(leaksIn(answers[6]!.text)).toEqual([]);
    // The receiver's echo is in the order's copies before the erasure: the search below would see it if it stayed.
    const before = await http.get<Json>(`/admin/orders/${ids.forwarded}`, { token });
    expect(JSON.stringify(before.body.deliveries)).toContain(forwarded.name);
    expect(leaksIn(JSON.stringify(before.body))).toEqual(expect.arrayContaining([forwarded.name, forwarded.street]));

    const erasures = [];
    for (const customer of customers) {
      erasures.push(await http.post<Json>('/admin/personal-data/erasure', { phone: customer.phone, reason: 'flows test' }, { token }));
    }
    expect(erasures.map((erasure) => erasure.status)).toEqual([200, 200, 200, 200, 200]);
    expect(erasures.map((erasure) => erasure.body.orders)).toEqual([1, 1, 1, 1, 1]);

    const metrics = await http.get<string>('/metrics');
    expect(metrics.status).toBe(200);
    expect(leaksIn(metrics.text)).toEqual([]);

    const audit = await http.get<Json>('/admin/audit-events?pageSize=100', { token });
    expect(audit.status).toBe(200);
    expect(audit.body.total).toBeLessThanOrEqual(100);
    const actions = (audit.body.items as Json[]).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['order.personal-data.erase', 'order.personal-data.reveal']));
    expect(leaksIn(JSON.stringify(audit.body))).toEqual([]);

    // After the erasure the order's every copy, the delivery log's excerpts and the receiver's last answer included, is clean.
    const detail = await http.get<Json>(`/admin/orders/${ids.forwarded}`, { token });
    expect(detail.body.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(leaksIn(JSON.stringify(detail.body))).toEqual([]);

    await service.stop();
    const log = service.logs.join('\n');
    expect(log).toContain('/api/admin/personal-data/erasure');
    expect(leaksIn(log)).toEqual([]);
    expect(log).not.toMatch(/529\.982\.247-25|52998224725/);
  });
});
