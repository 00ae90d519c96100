import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { webhookDelivery } from '../factories/index.js';
import { asPerson, signedInPerson, type SignedIn } from '../support/people.js';
import { platformOrder, taxedStore, testCustomer } from '../support/personal-data.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type Json = Record<string, any>;

/**
 * Who sees a customer's contact data through the API, not only in the console: a person with the role `support` or
 * `admin` reads orders with the e-mail, phone and CPF masked, a `fiscal` one without them, a machine client with the
 * `admin` scope in full; an admin person reveals them through an audited route.
 */
describe('the orders show a customer’s e-mail, phone and CPF by who reads them (e2e)', () => {
  let t: TestApp;
  let people: Record<'support' | 'fiscal' | 'admin', SignedIn>;
  const tag = `views${process.pid}`;
  const customer = testCustomer(tag);
  const orderId = `pv-${tag}`;
  const storeId = `pv-store-${process.pid}`;
  const phoneDigits = customer.phone.replace(/\D/g, '');
  // The values as the order holds them: the payload's e-mail is upper case (platformOrder), the receiver echoed it.
  const contactValues = [customer.email, customer.email.toUpperCase(), customer.phone, customer.documentNumber];
  const maskedEmail = `${customer.email.toUpperCase()[0]}***@EXAMPLE.COM.BR`;
  const maskedPhone = `(**) *****-${phoneDigits.slice(-4)}`;
  const maskedCpf = '***.982.247-**'; // 529.982.247-25: the middle six digits

  const detailAs = async (person: SignedIn) => {
    const answer = await t.http.get<Json>(`/admin/orders/${orderId}`, asPerson(person, false));
    expect(answer.status).toBe(200);
    return answer;
  };
  const listAs = async (person: SignedIn) => {
    const answer = await t.http.get<Json>(`/admin/orders?orderId=${orderId}`, asPerson(person, false));
    expect(answer.status).toBe(200);
    return answer;
  };
  const holding = (text: string, values: string[]) => values.filter((value) => text.includes(value));

  beforeAll(async () => {
    t = await bootTestApp();
    await taxedStore(t, storeId);
    const sent = await t.http.post('/enrich-order', platformOrder(orderId, storeId, customer), { token: await t.tokenFor(['orders']) });
    expect(sent.status).toBe(200);
    const order = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
    await webhookDelivery(t.dataSource, {
      orderDbId: order.id,
      attempt: 1,
      responseBody: `{"received":{"email":"${customer.email.toUpperCase()}","phone":"${customer.phone}"},"total":25.9}`,
    });
    people = {
      support: await signedInPerson(t, 'support'),
      fiscal: await signedInPerson(t, 'fiscal'),
      admin: await signedInPerson(t, 'admin'),
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['support', 'admin'] as const)('%s: the detail and the list show them masked, everywhere in the order', async (role) => {
    for (const answer of [await detailAs(people[role]), await listAs(people[role])]) {
      expect(holding(answer.text, contactValues)).toEqual([]);
      expect(holding(answer.text, [maskedEmail, maskedPhone, maskedCpf])).toEqual([maskedEmail, maskedPhone, maskedCpf]);
    }
    const detail = (await detailAs(people[role])).body;
    expect(detail.payload.customer).toMatchObject({
      email: maskedEmail,
      phone: maskedPhone,
      documentNumber: maskedCpf,
      name: customer.name,
    });
    expect(detail.enrichedPayload.customer).toMatchObject({ email: maskedEmail, documentNumber: maskedCpf });
    expect(JSON.stringify(detail.deliveries)).toContain(maskedEmail);
    // The fiscal record is untouched.
    expect(detail.enrichedPayload.taxSummary).toBeDefined();
  });

  it('fiscal: neither the values nor their masks are in the order', async () => {
    for (const answer of [await detailAs(people.fiscal), await listAs(people.fiscal)]) {
      expect(holding(answer.text, [...contactValues, maskedEmail, maskedPhone, maskedCpf])).toEqual([]);
    }
    const detail = (await detailAs(people.fiscal)).body;
    expect(Object.keys(detail.payload.customer).sort()).toEqual(['id', 'name']);
    expect(JSON.stringify(detail.deliveries)).toContain('[hidden]');
    expect(detail.enrichedPayload.taxSummary).toBeDefined();
  });

  it('a machine client with the admin scope reads them in full', async () => {
    const answer = await t.http.get<Json>(`/admin/orders/${orderId}`, { token: await t.adminToken() });
    expect(answer.body.payload.customer).toMatchObject({ email: customer.email.toUpperCase(), phone: customer.phone });
  });

  it('an admin reveals them, and the reveal is audited without a value', async () => {
    const revealed = await t.http.post<Json>(`/admin/personal-data/orders/${orderId}/reveal`, {}, asPerson(people.admin));
    expect(revealed.status).toBe(200);
    expect(revealed.body.fields).toEqual(
      expect.arrayContaining([
        { place: 'payload', path: 'customer.email', value: customer.email.toUpperCase() },
        { place: 'payload', path: 'customer.documentNumber', value: customer.documentNumber },
      ]),
    );
    const events = await t.dataSource.getRepository(AuditEventEntity).findBy({ action: 'order.personal-data.reveal', targetId: orderId });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actorType: 'user', actorId: people.admin.session.user.id });
    const audited = JSON.stringify(events[0]!.changes);
    expect(audited).toContain('payload.customer.email');
    expect(holding(audited, [...contactValues, customer.name, customer.street])).toEqual([]);
  });

  it.each(['support', 'fiscal'] as const)('%s cannot reveal them (403), and nothing is audited', async (role) => {
    const before = await t.dataSource.getRepository(AuditEventEntity).countBy({ action: 'order.personal-data.reveal' });
    const answer = await t.http.post(`/admin/personal-data/orders/${orderId}/reveal`, {}, asPerson(people[role]));
    expect(answer.status).toBe(403);
    expect(await t.dataSource.getRepository(AuditEventEntity).countBy({ action: 'order.personal-data.reveal' })).toBe(before);
  });

  it('an unknown order is a 404 and audits nothing', async () => {
    const answer = await t.http.post<Json>('/admin/personal-data/orders/no-such-order/reveal', {}, asPerson(people.admin));
    expect(answer.status).toBe(404);
  });
});
