import { randomUUID } from 'node:crypto';
import { FiscalGroupEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { fiscalGroup, order, orderPayload, productCategory } from '../factories/index.js';
import { failed, ok, type Api, type ErrorBody, type Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type ImpactBody = Schemas['FiscalGroupImpactRequestDto'];
type Rule = Schemas['TaxRuleDto'];

const HOUR_MS = 3_600_000;
const PREPARED_FOOD = '21069090';

/** Prepared food at `icmsRate` % ICMS, PIS 0.65 %, COFINS 3 % (non-cumulative CSTs 01: charged). */
const preparedFood = (icmsRate: number): Rule => ({
  NCM: PREPARED_FOOD,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: icmsRate,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  CFOP: '5102',
});
/** Soft drinks: ICMS by substitution (CST 60) and single-phase PIS/COFINS (04): no tax on the document. */
const SOFT_DRINK: Rule = {
  NCM: '22021000',
  CEST: '0300700',
  CST_ICMS: '60',
  ICMS_rate: 18,
  CST_PIS: '04',
  PIS_rate: 0.65,
  CST_COFINS: '04',
  COFINS_rate: 3,
};
/** Bakery products by their heading (brownie NCM 19059090 falls back to it): 18 %, 0.65 %, 3 %. */
const BAKERY: Rule = {
  NCM: '1905',
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
};

let sequence = 0;
const unique = (prefix: string) => `${prefix}-impact-${process.pid}-${++sequence}`;

describe('fiscal group impact preview (e2e)', () => {
  let t: TestApp;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    api = t.apiAs(token);
  });
  afterAll(async () => {
    await t.close();
  });

  const impact = (id: string, body: ImpactBody) => api.POST('/api/admin/fiscal-groups/{id}/impact', { params: { path: { id } }, body });

  /** Products of their own (categories are global) with the NCMs of the matrix. */
  async function products() {
    const burger = unique('burger');
    const cola = unique('cola');
    const brownie = unique('brownie');
    await productCategory(t.dataSource, { productId: burger, ncm: PREPARED_FOOD });
    await productCategory(t.dataSource, { productId: cola, ncm: '22021000' });
    await productCategory(t.dataSource, { productId: brownie, ncm: '19059090' });
    return { burger, cola, brownie };
  }

  const line = (productId: string, total: number) => ({ productId, quantity: 1, price: { totalPrice: { total } } });

  async function storedOrder(storeId: string, lines: ReturnType<typeof line>[], receivedAgoMs: number): Promise<OrderEntity> {
    const orderId = unique('order');
    return order(t.dataSource, {
      orderId,
      storeId,
      payload: orderPayload(orderId, storeId, { order: { type: 'DELIVERY', products: lines } }),
      createdAt: new Date(Date.now() - receivedAgoMs),
    });
  }

  /**
   * Two stores of the group, prepared food at 12 %; order A (store 1, 1 h ago): burger 25.90 + cola 6.50;
   * order B (store 2, 2 h ago): burger 25.90 + brownie 12.50; order C (store 1, 30 h ago): burger 25.90;
   * order D (another group's store, 1 h ago): burger 25.90.
   */
  async function scenario() {
    const ids = await products();
    const stores = [unique('store'), unique('store')];
    const group = await fiscalGroup(t.dataSource, {
      stores,
      taxMatrix: { [PREPARED_FOOD]: preparedFood(12), '22021000': SOFT_DRINK, '1905': BAKERY } as FiscalGroupEntity['taxMatrix'],
    });
    const other = await fiscalGroup(t.dataSource, { stores: [unique('store')] });
    const a = await storedOrder(stores[0]!, [line(ids.burger, 25.9), line(ids.cola, 6.5)], HOUR_MS);
    const b = await storedOrder(stores[1]!, [line(ids.burger, 25.9), line(ids.brownie, 12.5)], 2 * HOUR_MS);
    const c = await storedOrder(stores[0]!, [line(ids.burger, 25.9)], 30 * HOUR_MS);
    await storedOrder(other.stores[0]!.storeId, [line(ids.burger, 25.9)], HOUR_MS);
    return { ids, group, a, b, c };
  }

  /** Prepared food from 12 % to 18 %, and the bakery heading taken out of the matrix. */
  const RATE_UP_BAKERY_OUT = { taxMatrix: { [PREPARED_FOOD]: preparedFood(18), '22021000': SOFT_DRINK } };

  it('counts the orders and lines whose taxes change, per tax, with the figures computed by hand', async () => {
    const { ids, group, a, b } = await scenario();
    const answer = ok(await impact(group.id, RATE_UP_BAKERY_OUT), 200);

    // Burger 25.90, now at 12 %: ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79:
    //   PIS 22.79 × 0.65 % = 0.148135 → 0.15, COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.94.
    // At 18 %: ICMS 25.90 × 18 % = 4.662 → 4.66; base 25.90 − 4.66 = 21.24:
    //   PIS 21.24 × 0.65 % = 0.13806 → 0.14, COFINS 21.24 × 3 % = 0.6372 → 0.64; total 5.44.
    // Brownie 12.50 (heading 1905) now: ICMS 12.50 × 18 % = 2.25; base 10.25: PIS 0.066625 → 0.07,
    //   COFINS 0.3075 → 0.31; total 2.63. With the proposal: no rule, no taxes.
    // Cola 6.50: CST 60 and 04, no taxes before or after: compared, unchanged.
    // Orders A and B are in the last 24 h; C is 30 h old; D is another group's.
    expect(answer.compared).toEqual({ orders: 2, lines: 4 });
    expect(answer.changed).toEqual({ orders: 2, lines: 3 });
    expect(answer.moreOrdersInWindow).toBe(false);
    expect(answer.hours).toBe(24);
    // ICMS 3.11 + 3.11 + 2.25 = 8.47 → 4.66 + 4.66 = 9.32; PIS 0.15 + 0.15 + 0.07 = 0.37 → 0.28;
    // COFINS 0.68 + 0.68 + 0.31 = 1.67 → 1.28; total 3.94 + 3.94 + 2.63 = 10.51 → 10.88.
    expect(answer.totals).toEqual({
      ICMS_value: { before: 8.47, after: 9.32, change: 0.85 },
      PIS_value: { before: 0.37, after: 0.28, change: -0.09 },
      COFINS_value: { before: 1.67, after: 1.28, change: -0.39 },
      FCP_value: { before: 0, after: 0, change: 0 },
      total_tax: { before: 10.51, after: 10.88, change: 0.37 },
    });
    const brownie = {
      orderId: b.orderId,
      orderDbId: b.id,
      receivedAt: b.createdAt.toISOString(),
      path: 'order.products[1]',
      productId: ids.brownie,
      // These lines carry no name.
      productName: null,
      before: { ICMS_value: 2.25, PIS_value: 0.07, COFINS_value: 0.31, FCP_value: 0, total_tax: 2.63 },
      after: null,
      change: { ICMS_value: -2.25, PIS_value: -0.07, COFINS_value: -0.31, FCP_value: 0, total_tax: -2.63 },
    };
    expect(answer.linesLosingTaxes).toEqual({
      orders: 1,
      lines: 1,
      listed: [
        {
          ...brownie,
          warning: {
            code: 'NCM_NOT_IN_MATRIX',
            path: 'order.products[1]',
            message: `NCM 19059090 of product "${ids.brownie}" has no rule in the fiscal group's matrix (nor a prefix of it)`,
          },
        },
      ],
    });
    const burgerOf = (stored: OrderEntity) => ({
      orderId: stored.orderId,
      orderDbId: stored.id,
      receivedAt: stored.createdAt.toISOString(),
      path: 'order.products[0]',
      productId: ids.burger,
      productName: null,
      before: { ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, FCP_value: 0, total_tax: 3.94 },
      after: { ICMS_value: 4.66, PIS_value: 0.14, COFINS_value: 0.64, FCP_value: 0, total_tax: 5.44 },
      change: { ICMS_value: 1.55, PIS_value: -0.01, COFINS_value: -0.04, FCP_value: 0, total_tax: 1.5 },
    });
    // Largest |change of total_tax| first: the brownie's 2.63, then both burgers' 1.50, the newer order first.
    expect(answer.largestChanges).toEqual([brownie, burgerOf(a), burgerOf(b)]);
  });

  it('compares the orders received in the last `hours` only', async () => {
    const { group, c } = await scenario();
    // C, 30 h old, comes in with 31 hours: one more order and line, its burger changing as above.
    const wider = ok(await impact(group.id, { ...RATE_UP_BAKERY_OUT, hours: 31 }), 200);
    expect(wider.compared).toEqual({ orders: 3, lines: 5 });
    expect(wider.changed).toEqual({ orders: 3, lines: 4 });
    expect(wider.largestChanges.map((each) => each.orderId)).toContain(c.orderId);
    // Total tax 10.51 + 3.94 = 14.45 → 10.88 + 5.44 = 16.32.
    expect(wider.totals.total_tax).toEqual({ before: 14.45, after: 16.32, change: 1.87 });
    expect(new Date(wider.receivedTo).getTime() - new Date(wider.receivedFrom).getTime()).toBe(31 * HOUR_MS);
  });

  it('previews a change of settings: ICMS kept in the PIS/COFINS base', async () => {
    const { group } = await scenario();
    const answer = ok(await impact(group.id, { settings: { includeIcmsInPisCofinsBase: true } }), 200);
    // Burger 25.90: ICMS 3.11 as before; PIS 25.90 × 0.65 % = 0.16835 → 0.17, COFINS 25.90 × 3 % = 0.777 → 0.78; total 4.06.
    // Brownie 12.50: ICMS 2.25; PIS 12.50 × 0.65 % = 0.08125 → 0.08, COFINS 12.50 × 3 % = 0.375 → 0.38; total 2.71.
    expect(answer.changed).toEqual({ orders: 2, lines: 3 });
    expect(answer.totals).toMatchObject({
      ICMS_value: { before: 8.47, after: 8.47, change: 0 },
      // 0.17 + 0.17 + 0.08 = 0.42; 0.78 + 0.78 + 0.38 = 1.94; 4.06 + 4.06 + 2.71 = 10.83.
      PIS_value: { before: 0.37, after: 0.42, change: 0.05 },
      COFINS_value: { before: 1.67, after: 1.94, change: 0.27 },
      total_tax: { before: 10.51, after: 10.83, change: 0.32 },
    });
    expect(answer.linesLosingTaxes.lines).toBe(0);
  });

  it('stores nothing: the orders and the group are as they were', async () => {
    const { group, a, b } = await scenario();
    const rows = () => t.dataSource.getRepository(OrderEntity).find({ where: [{ id: a.id }, { id: b.id }], order: { id: 'ASC' } });
    const before = await rows();
    const groupBefore = await t.dataSource.getRepository(FiscalGroupEntity).findOneByOrFail({ id: group.id });
    ok(await impact(group.id, { ...RATE_UP_BAKERY_OUT, settings: { includeIcmsInPisCofinsBase: true }, name: 'Renamed' }), 200);
    expect(await rows()).toEqual(before);
    expect(before.every((row) => row.enrichedPayload === null && row.status === 'RECEIVED')).toBe(true);
    expect(await t.dataSource.getRepository(FiscalGroupEntity).findOneByOrFail({ id: group.id })).toEqual(groupBefore);
  });

  it('with an unchanged body, nothing changes', async () => {
    const { group } = await scenario();
    const answer = ok(await impact(group.id, {}), 200);
    expect(answer.compared).toEqual({ orders: 2, lines: 4 });
    expect(answer.changed).toEqual({ orders: 0, lines: 0 });
    expect(answer.largestChanges).toEqual([]);
    expect(answer.totals.total_tax).toEqual({ before: 10.51, after: 10.51, change: 0 });
  });

  it('answers 404 for an unknown group and 400 naming the field for a bad body', async () => {
    const missing = randomUUID();
    expect(failed(await impact(missing, {}), 404)).toEqual({ error: 'NOT_FOUND', message: `Fiscal group ${missing} not found` });
    const { group } = await scenario();
    const problem = async (body: unknown) => {
      const answer = await t.http.post<ErrorBody>(`/admin/fiscal-groups/${group.id}/impact`, body, { token });
      expect(answer.status).toBe(400);
      // The fields named (a text for `hours` breaks each of its rules: one detail per rule, all naming it).
      return [...new Set((answer.body.details ?? []).map((detail) => detail.field))];
    };
    expect(await problem({ hours: 0 })).toEqual(['hours']);
    expect(await problem({ hours: 169 })).toEqual(['hours']);
    expect(await problem({ hours: 1.5 })).toEqual(['hours']);
    expect(await problem({ hours: '24' })).toEqual(['hours']);
    expect(await problem({ taxMatrix: { [PREPARED_FOOD]: { ...preparedFood(12), ICMS_rate: 101 } } })).toEqual([
      `taxMatrix.${PREPARED_FOOD}.ICMS_rate`,
    ]);
    expect(await problem({ uf: 'XX' })).toEqual(['uf']);
    expect(await problem({ surprise: true })).toEqual(['surprise']);
    const notUuid = await t.http.post<ErrorBody>('/admin/fiscal-groups/not-a-uuid/impact', {}, { token });
    expect(notUuid.status).toBe(400);
  });

  it('is refused to a token without the admin scope', async () => {
    const { group } = await scenario();
    const ordersOnly = await t.tokenFor(['orders']);
    expect((await t.http.post(`/admin/fiscal-groups/${group.id}/impact`, {}, { token: ordersOnly })).status).toBe(403);
  });

  it('compares the newest 10,000 orders and says the window holds more', async () => {
    const ids = await products();
    const store = unique('store');
    const group = await fiscalGroup(t.dataSource, {
      stores: [store],
      taxMatrix: { [PREPARED_FOOD]: preparedFood(12), '1905': BAKERY } as FiscalGroupEntity['taxMatrix'],
    });
    // 10,000 one-burger orders in the last hour and, older, one brownie order: the 10,001st.
    // Inserted with one statement: 10,001 inserts through the factory would take minutes.
    await t.dataSource.query(
      `INSERT INTO orders (order_id, status, payload, store_id, source, created_at)
       SELECT $1 || '-' || n, 'RECEIVED',
              jsonb_build_object('orderId', $1 || '-' || n, 'store', jsonb_build_object('id', $2::text),
                'order', jsonb_build_object('products', jsonb_build_array(jsonb_build_object('productId', $3::text,
                  'price', jsonb_build_object('totalPrice', jsonb_build_object('total', 25.9)))))),
              $2, 'integration', now() - n * interval '100 milliseconds'
       FROM generate_series(1, 10000) AS n`,
      [unique('bulk'), store, ids.burger],
    );
    const oldest = await storedOrder(store, [line(ids.brownie, 12.5)], 2 * HOUR_MS);
    const answer = ok(await impact(group.id, { taxMatrix: { [PREPARED_FOOD]: preparedFood(18) } }), 200);
    expect(answer.maxOrders).toBe(10_000);
    expect(answer.moreOrdersInWindow).toBe(true);
    expect(answer.compared).toEqual({ orders: 10_000, lines: 10_000 });
    // The brownie order, the oldest, was left out: no line loses its taxes.
    expect(answer.linesLosingTaxes.lines).toBe(0);
    expect(answer.largestChanges.map((each) => each.orderId)).not.toContain(oldest.orderId);
    // 10,000 burgers: ICMS 3.11 → 4.66 each, 31,100.00 → 46,600.00; total 3.94 → 5.44, 39,400.00 → 54,400.00.
    expect(answer.totals.ICMS_value).toEqual({ before: 31_100, after: 46_600, change: 15_500 });
    expect(answer.totals.total_tax).toEqual({ before: 39_400, after: 54_400, change: 15_000 });
  });
});
