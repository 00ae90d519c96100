import { clientToken } from '../support/http.js';
import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { failed, ok } from '../support/api.js';
import { bootFulfillmentApp, fulfillmentSteps, MOEMA, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

type Scope = 'admin' | 'orders' | 'platform';

const BLANK_OR_PADDED = [[' '], ['\t'], [PINHEIROS, ' '], [` ${PINHEIROS}`], [`${PINHEIROS} `], [`${PINHEIROS}\n`]];
const REFUSAL = {
  error: 'VALIDATION_FAILED',
  message: expect.any(String),
  details: [{ field: 'stores', problem: 'each value in stores must be a store id: not blank, without spaces at either end' }],
};

/**
 * A client's `stores` empty means every store, so a blank entry must be refused, never dropped: dropped, `[' ']` would
 * become `[]`, and a list meant to limit a client would let it reach every store (and hold `admin`).
 */
describe('/api/admin/clients: store ids in `stores` (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  const { row, enrichedOrder } = fulfillmentSteps(() => f);

  const clientsNamed = (name: string) => t.dataSource.getRepository(ApiClientEntity).countBy({ name });
  const storedStores = async (clientId: string) => (await t.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId })).stores;
  const clientEvents = (clientId: string) =>
    t.dataSource.getRepository(AuditEventEntity).countBy({ targetType: 'client', targetId: clientId });
  const createPos = async (scopes: Scope[], stores: string[]) =>
    ok(await t.api.POST('/api/admin/clients', { body: { name: unique('POS'), scopes, stores } }), 201);
  const patch = (clientId: string, body: { scopes?: Scope[]; stores?: string[] }) =>
    t.api.PATCH('/api/admin/clients/{clientId}', { params: { path: { clientId } }, body });
  const loginToken = (clientId: string, secret: string) => clientToken(t.http, clientId, secret);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    t = f.t;
  });
  afterAll(() => t?.close());

  it('400 naming stores for a blank or space-padded store id at creation; nothing is created', async () => {
    for (const stores of BLANK_OR_PADDED) {
      const answer = await t.api.POST('/api/admin/clients', { body: { name: 'POS typo', scopes: ['orders'], stores } });
      expect([stores, failed(answer, 400)]).toEqual([stores, REFUSAL]);
    }
    // An empty id fails the length rule too.
    const empty = failed(await t.api.POST('/api/admin/clients', { body: { name: 'POS typo', scopes: ['orders'], stores: [''] } }), 400);
    expect(empty.details).toContainEqual(REFUSAL.details[0]);
    expect(empty.details?.map((detail) => detail.field)).toEqual(['stores', 'stores']);
    expect(await clientsNamed('POS typo')).toBe(0);
  });

  it('400 for admin with a blank store id: the blank entry does not make the client every-store', async () => {
    const answer = await t.api.POST('/api/admin/clients', { body: { name: 'POS with admin', scopes: ['orders', 'admin'], stores: [' '] } });
    expect(failed(answer, 400)).toEqual(REFUSAL);
    expect(await clientsNamed('POS with admin')).toBe(0);
  });

  it('400 for a change to a blank store id: the old token still reaches only its store', async () => {
    const pos = await createPos(['orders'], [PINHEIROS]);
    const token = await loginToken(pos.clientId, pos.secret);
    const other = unique('moema');
    await enrichedOrder(other, MOEMA);
    const cancelOther = () =>
      t.http.post('/api/order/status', { order_id: other, status: 'CANCELLED' }, { token }).then((answer) => answer.status);
    expect(await cancelOther()).toBe(404);

    for (const stores of BLANK_OR_PADDED) {
      const answer = await patch(pos.clientId, { stores });
      expect([stores, failed(answer, 400)]).toEqual([stores, REFUSAL]);
    }
    expect(failed(await patch(pos.clientId, { scopes: ['orders', 'admin'], stores: [' '] }), 400)).toEqual(REFUSAL);

    expect(await storedStores(pos.clientId)).toEqual([PINHEIROS]);
    expect(await clientEvents(pos.clientId)).toBe(1); // the creation only
    expect(await cancelOther()).toBe(404);
    expect((await row(other)).status).toBe('ENRICHED');
  });

  it('[] is still every store, and store ids are kept as sent (spaces inside, repeats dropped)', async () => {
    const everyStore = await createPos(['orders', 'admin'], []);
    expect(everyStore.stores).toEqual([]);
    const limited = await createPos(['orders'], [PINHEIROS, 'store 7', PINHEIROS]);
    expect(limited.stores).toEqual([PINHEIROS, 'store 7']);
    expect(ok(await patch(limited.clientId, { stores: [] }), 200).stores).toEqual([]);
    expect(await storedStores(limited.clientId)).toEqual([]);
  });
});
