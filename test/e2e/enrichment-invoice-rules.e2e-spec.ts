import { failed, ok, type Api, type ErrorBody } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The tax rules of real invoices (engine 1.1.0 onwards) through the whole service: a matrix with a reduced
 * ICMS base and FCP is accepted by the admin API and the CSV import, refused where the CST does
 * not allow it, and applied by POST /api/enrich-order; a Simples Nacional group charges no PIS/COFINS.
 */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

const rule = (ncm: string, fields: Record<string, unknown>) => ({
  NCM: ncm,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  ...fields,
});

describe('invoice tax rules through /api/enrich-order (e2e)', () => {
  let t: TestApp;
  let admin: Api;
  let adminToken: string;
  let orders: Api;
  const normalStore = unique('store-normal');
  const simplesStore = unique('store-simples');
  let normalGroupId: string;

  const orderOf = (storeId: string, products: Array<[string, number]>) => ({
    orderId: unique('order'),
    store: { id: storeId },
    order: { products: products.map(([productId, total]) => ({ productId, quantity: 1, price: { totalPrice: { total } } })) },
  });

  beforeAll(async () => {
    t = await bootTestApp();
    adminToken = await t.tokenFor(['admin']);
    admin = t.apiAs(adminToken);
    orders = t.apiAs(await t.tokenFor(['orders']));
    const normal = await admin.POST('/api/admin/fiscal-groups', {
      body: {
        name: 'Distribuidora SP',
        uf: 'SP',
        taxRegime: 'LUCRO_REAL',
        stores: [{ store_id: normalStore, store_name: 'Centro' }],
        taxMatrix: {
          '19059090': rule('19059090', { CST_ICMS: '020', ICMS_rate: 7, ICMS_base_reduction: 41.67 }),
          '21069090': rule('21069090', { FCP_rate: 2 }),
          '22021000': rule('22021000', { CST_ICMS: '60', FCP_rate: 2 }),
        },
      },
    });
    normalGroupId = ok(normal, 201).id;
    const simples = await admin.POST('/api/admin/fiscal-groups', {
      body: {
        name: 'Lanchonete Simples',
        uf: 'RJ',
        taxRegime: 'SIMPLES_NACIONAL',
        stores: [{ store_id: simplesStore, store_name: 'Lapa' }],
        taxMatrix: {
          '21069090': rule('21069090', { CST_ICMS: '102', CST_PIS: '49', CST_COFINS: '49' }),
          '19059090': rule('19059090', { CST_ICMS: '900', ICMS_rate: 20, ICMS_base_reduction: 20, FCP_rate: 2 }),
        },
      },
    });
    ok(simples, 201);
    for (const [productId, ncm] of [
      ['inv-bread', '19059090'],
      ['inv-burger', '21069090'],
      ['inv-cola', '22021000'],
    ]) {
      const category = { productId, productName: productId, ncm };
      ok(await admin.POST('/api/admin/product-fiscal-categories', { body: category }), 201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('reduced ICMS base: the value on the rounded base, echoed on the line, stored with the current engine version', async () => {
    const sent = orderOf(normalStore, [['inv-bread', 150]]);
    const answer = ok(await orders.POST('/api/enrich-order', { body: sent }), 200);
    // ICMS_base = 150.00 × (100 − 41.67) / 100 = 87.495 → 87.50; ICMS = 87.50 × 7 % = 6.125 → 6.13
    // PIS/COFINS base = 150.00 − 6.13 = 143.87; PIS = 0.935155 → 0.94; COFINS = 4.3161 → 4.32
    // total_tax = 6.13 + 0.94 + 4.32 = 11.39
    expect(answer.payload.order!.products![0]!.tax).toMatchObject({
      CST_ICMS: '020',
      ICMS_rate: 7,
      ICMS_base_reduction: 41.67,
      ICMS_base: 87.5,
      ICMS_value: 6.13,
      PIS_base: 143.87,
      PIS_value: 0.94,
      COFINS_base: 143.87,
      COFINS_value: 4.32,
      total_tax: 11.39,
    });
    expect(answer.payload.taxSummary.totals).toEqual({
      base: 150,
      ICMS_value: 6.13,
      PIS_value: 0.94,
      COFINS_value: 4.32,
      total_tax: 11.39,
    });
    const detail = ok(await admin.GET('/api/admin/orders/{id}', { params: { path: { id: sent.orderId } } }), 200);
    expect(detail.enrichedPayload).toMatchObject({ taxSummary: { engineVersion: '1.2.0' } });
  });

  it('FCP: per line on the ICMS base, summed over the lines, in total_tax, 0 where ICMS is not charged', async () => {
    const answer = ok(
      await orders.POST('/api/enrich-order', {
        body: orderOf(normalStore, [
          ['inv-burger', 25.9],
          ['inv-burger', 0.25],
          ['inv-cola', 10],
        ]),
      }),
      200,
    );
    const [burger, small, cola] = answer.payload.order!.products!.map((line) => line.tax);
    // 25.90: ICMS 4.662 → 4.66; FCP 25.90 × 2 % = 0.518 → 0.52; PIS/COFINS base 21.24: PIS 0.14, COFINS 0.64; total 5.96
    expect(burger).toMatchObject({ FCP_rate: 2, FCP_base: 25.9, FCP_value: 0.52, PIS_base: 21.24, total_tax: 5.96 });
    // 0.25: ICMS 0.045 → 0.05; FCP 0.005 → 0.01 (tie); PIS/COFINS base 0.20: PIS 0.0013 → 0.00, COFINS 0.006 → 0.01; total 0.07
    expect(small).toMatchObject({ ICMS_value: 0.05, FCP_value: 0.01, PIS_value: 0, COFINS_value: 0.01, total_tax: 0.07 });
    // 10.00 with CST 60: ICMS 0, FCP 0 (base 10.00 kept), reason CST_60 for both; PIS/COFINS on 10.00: 0.07, 0.30
    expect(cola).toMatchObject({ ICMS_value: 0, FCP_base: 10, FCP_value: 0, total_tax: 0.37 });
    expect(cola?.zeroReasons).toEqual({ ICMS: 'CST_60', FCP: 'CST_60' });
    // FCP total = 0.52 + 0.01 + 0 = 0.53 (rounded once over the charged bases it would be 26.15 × 2 % = 0.523 → 0.52)
    // ICMS 4.66 + 0.05 = 4.71; PIS 0.14 + 0 + 0.07 = 0.21; COFINS 0.64 + 0.01 + 0.30 = 0.95; total 4.71 + 0.21 + 0.95 + 0.53 = 6.40
    expect(answer.payload.taxSummary.totals).toEqual({
      base: 36.15,
      ICMS_value: 4.71,
      PIS_value: 0.21,
      COFINS_value: 0.95,
      FCP_value: 0.53,
      total_tax: 6.4,
    });
  });

  it('Simples Nacional: PIS/COFINS 0 with reason SIMPLES_NACIONAL, whatever the CST; CSOSN 900 reduces the base and charges FCP', async () => {
    const answer = ok(
      await orders.POST('/api/enrich-order', {
        body: orderOf(simplesStore, [
          ['inv-burger', 10],
          ['inv-bread', 10],
        ]),
      }),
      200,
    );
    const [burger, bread] = answer.payload.order!.products!.map((line) => line.tax);
    // CSOSN 102: ICMS 0; PIS/COFINS base 10.00, rates kept, values 0
    expect(burger).toMatchObject({
      PIS_base: 10,
      PIS_rate: 0.65,
      PIS_value: 0,
      COFINS_base: 10,
      COFINS_rate: 3,
      COFINS_value: 0,
      total_tax: 0,
    });
    expect(burger?.zeroReasons).toEqual({ ICMS: 'CSOSN_102', PIS: 'SIMPLES_NACIONAL', COFINS: 'SIMPLES_NACIONAL' });
    // CSOSN 900, 20 % off: base 10.00 × 80 / 100 = 8.00; ICMS 8.00 × 20 % = 1.60; FCP 8.00 × 2 % = 0.16; PIS/COFINS 0; total 1.76
    expect(bread).toMatchObject({ ICMS_base: 8, ICMS_value: 1.6, FCP_value: 0.16, PIS_value: 0, COFINS_value: 0, total_tax: 1.76 });
    expect(answer.payload.taxSummary.totals).toEqual({
      base: 20,
      ICMS_value: 1.6,
      PIS_value: 0,
      COFINS_value: 0,
      FCP_value: 0.16,
      total_tax: 1.76,
    });
  });

  it('refuses a reduction with a CST that does not allow it (400 naming the rule key and field), and an FCP rate over 4', async () => {
    const response = await admin.PUT('/api/admin/fiscal-groups/{id}', {
      params: { path: { id: normalGroupId } },
      body: {
        taxMatrix: {
          '21069090': rule('21069090', { CST_ICMS: '00', ICMS_base_reduction: 33.33 }),
          '22021000': rule('22021000', { FCP_rate: 4.5 }),
        },
      },
    });
    expect(failed(response, 400).details).toEqual([
      {
        field: 'taxMatrix.21069090.ICMS_base_reduction',
        problem: 'is allowed only with CST_ICMS 20 or 70 (or origin + CST: 020, 170...) or CSOSN 900',
      },
      { field: 'taxMatrix.22021000.FCP_rate', problem: 'must be a number from 0 to 4 with at most 4 decimals' },
    ]);
  });

  it('CSV: exports and imports the new columns; a refused reduction names its line', async () => {
    const exported = await t.http.get(`/admin/fiscal-groups/${normalGroupId}/tax-matrix.csv`, { token: adminToken });
    expect(exported.status).toBe(200);
    const lines = exported.text.trim().split(/\r\n/);
    expect(lines[0]).toMatch(/,ICMS_base_reduction,FCP_rate,orig$/);
    expect(lines.find((line) => line.startsWith('19059090,'))).toMatch(/,41\.67,,$/);
    const imported = await t.http.put(`/admin/fiscal-groups/${normalGroupId}/tax-matrix`, undefined, {
      token: adminToken,
      raw: exported.text,
      headers: { 'content-type': 'text/csv' },
    });
    expect(imported.status).toBe(200);

    const bad = `${lines[0]}\r\n21069090,,40,18,01,0.65,01,3,,,,,,,10,,\r\n`;
    const refused = await t.http.put<ErrorBody>(`/admin/fiscal-groups/${normalGroupId}/tax-matrix`, undefined, {
      token: adminToken,
      raw: bad,
      headers: { 'content-type': 'text/csv' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([
      {
        field: 'line 2 ICMS_base_reduction',
        line: 2,
        column: 'ICMS_base_reduction',
        problem: 'is allowed only with CST_ICMS 20 or 70 (or origin + CST: 020, 170...) or CSOSN 900',
      },
    ]);
  });
});
