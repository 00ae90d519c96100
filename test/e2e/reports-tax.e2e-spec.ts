import { OrderEntity } from '../../src/orders/order.entity.js';
import type { ErrorBody } from '../support/api.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { OrderTaxHourEntity } from '../../src/orders/order-tax-hour.entity.js';
import { seedReportOrders, taxFolding, type ReportsFixture } from '../support/reports.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface ReportRow {
  storeId: string | null;
  fiscalGroupId: string | null;
  fiscalGroupName: string | null;
  uf: string | null;
  cfop: string | null;
  cst: string | null;
  icmsRate: number | null;
  orders: number;
  items: number;
  icmsBase: number;
  icmsValue: number;
  fcpValue: number;
  pisBase: number;
  pisValue: number;
  cofinsBase: number;
  cofinsValue: number;
  totalTax: number;
}
interface Report {
  periodStart: string;
  periodEnd: string;
  timeZone: string;
  rows: ReportRow[];
  totals: Omit<ReportRow, 'storeId' | 'fiscalGroupId' | 'fiscalGroupName' | 'uf' | 'cfop' | 'cst' | 'icmsRate'>;
}

const NOVEMBER = { from: '2026-11-01', to: '2026-11-30' };
const MONEY = ['icmsBase', 'icmsValue', 'fcpValue', 'pisBase', 'pisValue', 'cofinsBase', 'cofinsValue', 'totalTax'] as const;
type Tax = Record<string, unknown>;

/** Every taxed item of a stored order: its lines and their selected modifiers that carry `tax`. */
function taxedItems(enriched: Record<string, any>): Tax[] {
  const items: Tax[] = [];
  for (const line of enriched.order?.products ?? []) {
    if (line?.tax) items.push(line.tax);
    for (const group of line?.modifierGroups ?? [])
      for (const modifier of group?.selectedModifiers ?? []) if (modifier?.tax) items.push(modifier.tax);
  }
  return items;
}

// The same figures whether the report sums the orders live (no fold has run) or reads the hourly summaries of the fold.
describe.each([{ folded: false }, { folded: true }])('GET /api/admin/reports/tax (e2e), folded: $folded', ({ folded }) => {
  let t: TestApp;
  let fixture: ReportsFixture;
  const report = async (query: Record<string, string>) => {
    const answer = await t.http.get<Report>('/admin/reports/tax', { token: await t.adminToken(), query });
    expect(answer.status).toBe(200);
    return answer.body;
  };

  beforeAll(async () => {
    t = await bootTestApp();
    fixture = await seedReportOrders(t);
    if (folded) {
      await (await taxFolding(t)).foldAll();
      // The fixture's November hours are summarized: the report reads them from the summaries.
      expect(await t.dataSource.getRepository(OrderTaxHourEntity).count()).toBeGreaterThan(0);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sums the taxed items by store, group, UF, CFOP, CST and rate, figures computed by hand', async () => {
    const body = await report(NOVEMBER);
    // Store A, burger at 18 %: a1's 25.90 and a2's 10.00.
    //   a1: ICMS 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24; PIS 21.24 × 0.65 % = 0.13806 → 0.14;
    //       COFINS 21.24 × 3 % = 0.6372 → 0.64; total 4.66 + 0.14 + 0.64 = 5.44.
    //   a2: ICMS 10.00 × 18 % = 1.80; base 10.00 − 1.80 = 8.20; PIS 8.20 × 0.65 % = 0.0533 → 0.05; COFINS 8.20 × 3 % = 0.246 → 0.25;
    //       total 1.80 + 0.05 + 0.25 = 2.10.
    //   Row: ICMS base 25.90 + 10.00 = 35.90; ICMS 4.66 + 1.80 = 6.46; PIS/COFINS base 21.24 + 8.20 = 29.44;
    //        PIS 0.14 + 0.05 = 0.19; COFINS 0.64 + 0.25 = 0.89; total 5.44 + 2.10 = 7.54.
    // Store A, cola under CST 60 (a1's line and a2's modifier, 6.00 each): ICMS not charged, PIS/COFINS CST 04 not charged;
    //   bases 6.00 + 6.00 = 12.00 (the PIS/COFINS base keeps the whole amount, no ICMS taken out); every value 0.
    // Store B, burger at 12 %: ICMS 25.90 × 12 % = 3.108 → 3.11; base 25.90 − 3.11 = 22.79; PIS 22.79 × 0.65 % = 0.148135 → 0.15;
    //   COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94.
    // The cancelled order and the order of 31 October in São Paulo are left out.
    const row = (
      store: string,
      group: string,
      cfop: string,
      cst: string,
      icmsRate: number,
      orders: number,
      items: number,
      money: number[],
    ) => ({
      storeId: store,
      fiscalGroupId: group,
      fiscalGroupName: `Reports ${store}`,
      uf: 'SP',
      cfop,
      cst,
      icmsRate,
      orders,
      items,
      ...Object.fromEntries(MONEY.map((field, index) => [field, money[index]])),
    });
    const { storeA, storeB, groupA, groupB } = fixture;
    expect(body.rows).toEqual([
      row(storeA, groupA, '5102', '00', 18, 2, 2, [35.9, 6.46, 0, 29.44, 0.19, 29.44, 0.89, 7.54]),
      row(storeA, groupA, '5405', '60', 18, 2, 2, [12, 0, 0, 12, 0, 12, 0, 0]),
      row(storeB, groupB, '5102', '00', 12, 1, 1, [25.9, 3.11, 0, 22.79, 0.15, 22.79, 0.68, 3.94]),
    ]);
    // Totals: 3 orders (a1, a2, b1), 5 items; ICMS base 35.90 + 12.00 + 25.90 = 73.80; ICMS 6.46 + 3.11 = 9.57;
    // PIS/COFINS base 29.44 + 12.00 + 22.79 = 64.23; PIS 0.19 + 0.15 = 0.34; COFINS 0.89 + 0.68 = 1.57; total 7.54 + 3.94 = 11.48.
    expect(body.totals).toEqual({
      orders: 3,
      items: 5,
      icmsBase: 73.8,
      icmsValue: 9.57,
      fcpValue: 0,
      pisBase: 64.23,
      pisValue: 0.34,
      cofinsBase: 64.23,
      cofinsValue: 1.57,
      totalTax: 11.48,
    });
    // November in Brasília time: 03:00 UTC on the 1st to 03:00 UTC on 1 December.
    expect(body).toMatchObject({
      periodStart: '2026-11-01T03:00:00.000Z',
      periodEnd: '2026-12-01T03:00:00.000Z',
      timeZone: 'America/Sao_Paulo',
    });
  });

  it('reconciles to the cent with the stored orders it covers, summed line by line here', async () => {
    const body = await report(NOVEMBER);
    const stored = await t.dataSource.getRepository(OrderEntity).find();
    const from = Date.parse('2026-11-01T03:00:00Z');
    const to = Date.parse('2026-12-01T03:00:00Z');
    const covered = stored.filter(
      (order) =>
        order.enrichedPayload &&
        order.createdAt.getTime() >= from &&
        order.createdAt.getTime() < to &&
        !['CANCELLED', 'REJECTED'].includes(order.status),
    );
    expect(covered.map((order) => order.orderId).sort()).toEqual([fixture.orders.a1, fixture.orders.a2, fixture.orders.b1].sort());
    const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100);
    const byKey = new Map<string, { orders: Set<string>; items: number; sums: number[] }>();
    for (const order of covered) {
      for (const tax of taxedItems(order.enrichedPayload!)) {
        const key = [order.storeId, tax.CFOP, tax.CST_ICMS, tax.ICMS_rate].join('|');
        const entry = byKey.get(key) ?? { orders: new Set(), items: 0, sums: MONEY.map(() => 0) };
        entry.orders.add(order.orderId);
        entry.items += 1;
        const figures = [
          tax.ICMS_base,
          tax.ICMS_value,
          tax.FCP_value,
          tax.PIS_base,
          tax.PIS_value,
          tax.COFINS_base,
          tax.COFINS_value,
          tax.total_tax,
        ];
        figures.forEach((figure, index) => (entry.sums[index]! += cents(figure)));
        byKey.set(key, entry);
      }
    }
    const fromReport = new Map(
      body.rows.map((row) => [
        [row.storeId, row.cfop, row.cst, row.icmsRate].join('|'),
        { orders: row.orders, items: row.items, sums: MONEY.map((field) => cents(row[field])) },
      ]),
    );
    expect(fromReport).toEqual(new Map([...byKey].map(([key, entry]) => [key, { ...entry, orders: entry.orders.size }])));
    // The totals are the orders' own taxSummary totals added up.
    const totalTax = covered.reduce(
      (sum, order) =>
        sum +
        cents((order.enrichedPayload!.taxSummary as Tax).totals && ((order.enrichedPayload!.taxSummary as any).totals.total_tax as number)),
      0,
    );
    expect(cents(body.totals.totalTax)).toBe(totalTax);
  });

  it("reads the period's days in the time zone asked for", async () => {
    // 2026-11-01 02:30 UTC is 1 November in UTC: the edge order (burger 10.00 at 18 %, as a2: ICMS 1.80, total 2.10) joins.
    const utc = await report({ ...NOVEMBER, timeZone: 'UTC' });
    expect(utc.totals.orders).toBe(4);
    // 9.57 + 1.80 = 11.37; 11.48 + 2.10 = 13.58.
    expect([utc.totals.icmsValue, utc.totals.totalTax]).toEqual([11.37, 13.58]);
    expect(utc.periodStart).toBe('2026-11-01T00:00:00.000Z');
    // In São Paulo it is 31 October: alone in a report of that day.
    const october = await report({ from: '2026-10-31', to: '2026-10-31' });
    expect(october.totals).toMatchObject({ orders: 1, items: 1, icmsValue: 1.8, totalTax: 2.1 });
  });

  it('filters by store, fiscal group and UF', async () => {
    const byStore = await report({ ...NOVEMBER, storeId: fixture.storeB });
    expect(byStore.rows.map((row) => row.storeId)).toEqual([fixture.storeB]);
    expect(byStore.totals).toMatchObject({ orders: 1, totalTax: 3.94 });
    const byGroup = await report({ ...NOVEMBER, fiscalGroupId: fixture.groupA });
    expect(byGroup.rows.map((row) => row.cfop)).toEqual(['5102', '5405']);
    expect(byGroup.totals).toMatchObject({ orders: 2, items: 4, totalTax: 7.54 });
    expect((await report({ ...NOVEMBER, uf: 'SP' })).totals.orders).toBe(3);
    const elsewhere = await report({ ...NOVEMBER, uf: 'RJ' });
    expect(elsewhere.rows).toEqual([]);
    expect(elsewhere.totals).toEqual({ orders: 0, items: 0, ...Object.fromEntries(MONEY.map((field) => [field, 0])) });
  });

  it('follows an order that is cancelled after it was reported', async () => {
    await t.dataSource.getRepository(OrderEntity).update({ orderId: fixture.orders.b1 }, { status: 'CANCELLED' });
    try {
      expect((await report(NOVEMBER)).totals).toMatchObject({ orders: 2, totalTax: 7.54 });
    } finally {
      await t.dataSource.getRepository(OrderEntity).update({ orderId: fixture.orders.b1 }, { status: 'ENRICHED' });
    }
    expect((await report(NOVEMBER)).totals.orders).toBe(3);
  });

  it('refuses a bad period, zone or filter with 400 VALIDATION_FAILED naming the field', async () => {
    const token = await t.adminToken();
    const refused = async (query: Record<string, string>, field: string) => {
      const answer = await t.http.get<ErrorBody>('/admin/reports/tax', { token, query });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_FAILED');
      expect(answer.body.details?.map((detail) => detail.field)).toContain(field);
    };
    await refused({ from: '2026-02-30', to: '2026-03-01' }, 'from');
    await refused({ from: '2026-11-01' }, 'to');
    await refused({ from: '2026-11-30', to: '2026-11-01' }, 'to');
    // 2025-01-01 to 2026-01-02: 365 + 2 = 367 days, one more than the 366 a period may hold.
    await refused({ from: '2025-01-01', to: '2026-01-02' }, 'to');
    await refused({ ...NOVEMBER, timeZone: 'Mars/Olympus' }, 'timeZone');
    await refused({ ...NOVEMBER, fiscalGroupId: 'nope' }, 'fiscalGroupId');
    await refused({ ...NOVEMBER, uf: 'sp' }, 'uf');
    await refused({ ...NOVEMBER, page: '1' }, 'page');
    // 2025-01-01 to 2026-01-01 is 366 days: the longest period there is.
    expect((await t.http.get('/admin/reports/tax', { token, query: { from: '2025-01-01', to: '2026-01-01' } })).status).toBe(200);
  });

  it('lets admin and fiscal people read it, not support; clients need the admin scope', async () => {
    for (const role of ['admin', 'fiscal'] as const) {
      const person = await signedInPerson(t, role);
      expect((await t.http.get('/admin/reports/tax', { ...asPerson(person), query: NOVEMBER })).status).toBe(200);
    }
    const support = await signedInPerson(t, 'support');
    expect((await t.http.get('/admin/reports/tax', { ...asPerson(support), query: NOVEMBER })).status).toBe(403);
    expect((await t.http.get('/admin/reports/tax.csv', { ...asPerson(support), query: NOVEMBER })).status).toBe(403);
    expect((await t.http.get('/admin/reports/tax', { token: await t.tokenFor(['orders']), query: NOVEMBER })).status).toBe(403);
    expect((await t.http.get('/admin/reports/tax', { query: NOVEMBER })).status).toBe(401);
  });

  it('exports the same report as CSV, amounts exact, with a TOTAL line', async () => {
    const answer = await t.http.get<string>('/admin/reports/tax.csv', { token: await t.adminToken(), query: NOVEMBER });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="tax-report-2026-11-01-2026-11-30.csv"');
    const { storeA, storeB, groupA, groupB } = fixture;
    expect(answer.text.split('\r\n')).toEqual([
      'storeId,fiscalGroupId,fiscalGroupName,uf,cfop,cst,icmsRate,orders,items,icmsBase,icmsValue,fcpValue,pisBase,pisValue,cofinsBase,cofinsValue,totalTax',
      `${storeA},${groupA},Reports ${storeA},SP,5102,00,18,2,2,35.90,6.46,0.00,29.44,0.19,29.44,0.89,7.54`,
      `${storeA},${groupA},Reports ${storeA},SP,5405,60,18,2,2,12.00,0.00,0.00,12.00,0.00,12.00,0.00,0.00`,
      `${storeB},${groupB},Reports ${storeB},SP,5102,00,12,1,1,25.90,3.11,0.00,22.79,0.15,22.79,0.68,3.94`,
      'TOTAL,,,,,,,3,5,73.80,9.57,0.00,64.23,0.34,64.23,1.57,11.48',
      '',
    ]);
  });

  it('exports the same report as an XLSX workbook', async () => {
    const response = await fetch(`${t.baseUrl}/admin/reports/tax.xlsx?from=2026-11-01&to=2026-11-30`, {
      headers: { authorization: `Bearer ${await t.adminToken()}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const bytes = Buffer.from(await response.arrayBuffer());
    // A ZIP archive (PK\x03\x04) holding the sheet.
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(bytes.includes(Buffer.from('xl/worksheets/sheet1.xml'))).toBe(true);
  });
});
