import { createTestDatabase } from '../setup/test-database.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { ifoodOrder, newOrderBody, platformOrder, testCustomer } from '../support/personal-data.js';
import { seedFiscalData } from '../support/orders.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/**
 * Customers' data never reaches a log line, at the most verbose level, on success and on failure: a running service
 * takes orders in every intake shape (platform payload, new-order webhook, iFood), refuses some (invalid bodies, a store
 * without a fiscal group, a closed order's re-send), answers a personal-data lookup and an erasure, and its whole log
 * is then searched for the customers' values.
 */
describe('personal data and the log (e2e)', () => {
  let database: { url: string; drop(): Promise<void> };
  let service: ServiceProcess;
  const customer = testCustomer(`log${process.pid}`);

  beforeAll(async () => {
    database = await createTestDatabase();
    service = await startServiceProcess({ DATABASE_URL: database.url, LOG_LEVEL: 'trace' }, 150_000);
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('logs none of the customers’ values, at any level', async () => {
    const http = new HttpClient(service.baseUrl);
    const token = await developmentClientToken(http);
    const storeId = `log-store-${process.pid}`;
    await seedFiscalData(http, token, storeId);

    const answers = [
      await http.post('/enrich-order', platformOrder(`log-taxed-${process.pid}`, storeId, customer), { token }),
      await http.post('/enrich-order', platformOrder(`log-nogroup-${process.pid}`, 'log-store-without-group', customer), { token }),
      await http.post('/enrich-order', { ...platformOrder(`log-bad-${process.pid}`, storeId, customer), orderId: 42 }, { token }),
      await http.post('/domain-cliente/webhook/new-order', newOrderBody(`log-webhook-${process.pid}`, storeId, customer), { token }),
      await http.post('/domain-cliente/webhook/new-order', { ...newOrderBody('', storeId, customer), items: [] }, { token }),
      await http.post('/enrich-order?profile=ifood', ifoodOrder(`log-ifood-${process.pid}`, storeId, customer), { token }),
      await http.post(
        '/enrich-order?profile=ifood',
        { ...ifoodOrder(`log-ifood-bad-${process.pid}`, storeId, customer), items: 'x' },
        { token },
      ),
      await http.get(`/admin/personal-data?email=${encodeURIComponent(customer.email)}`, { token }),
      await http.get(`/admin/personal-data?document=${encodeURIComponent('529.982.247-24')}`, { token }),
      await http.post('/admin/personal-data/erasure', { phone: customer.phone, reason: 'log test' }, { token }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 422, 400, 200, 400, 200, 400, 200, 400, 200]);

    // Stopped: every line it wrote has been read.
    await service.stop();
    const log = service.logs.join('\n');
    // Every request is in it (the search below reads the lines the requests wrote).
    expect(log).toContain('/api/admin/personal-data/erasure');
    const values = [
      customer.email,
      customer.email.toUpperCase(),
      customer.name,
      customer.phone,
      customer.street,
      customer.postalCode,
      customer.id,
    ];
    const leaks = values.filter((value) => log.includes(value) || log.includes(encodeURIComponent(value)));
    expect(leaks).toEqual([]);
    expect(log).not.toMatch(/529\.982\.247-2[45]|5299822472[45]/);
  });
});
