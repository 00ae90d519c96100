import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax, TaxEngineResult } from './tax-engine.js';

/**
 * What the engine does not tax as sent: a negative unit price or quantity, and numeric text beyond the
 * digits the service reads (the request refuses such text before the engine sees it; the engine also
 * taxes stored orders again, a transfer or a preview of a fiscal change, which were not checked so);
 * and the sums it cannot make exactly, past Number.MAX_SAFE_INTEGER cents, which it reports.
 */
const engine = new DefaultTaxEngine();

const GROUP: FiscalGroupSnapshot = {
  id: 'g',
  externalId: null,
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  // ICMS 10 %, no PIS/COFINS: each value is the base × 10 / 100, half-up.
  taxMatrix: {
    '99999999': {
      NCM: '99999999',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 10,
      CST_PIS: '01',
      PIS_rate: 0,
      CST_COFINS: '01',
      COFINS_rate: 0,
    },
  },
  settings: {},
};
const CATEGORIES: CategoryIndex = { byProductId: new Map([['flat', '99999999']]), byExternalProductId: new Map() };

function run(products: unknown[], adjustments: Record<string, unknown> = {}, group = GROUP): TaxEngineResult {
  const payload = { orderId: 'o', store: { id: 's' }, order: { products, ...adjustments } };
  return engine.enrich({ group, categories: CATEGORIES, payload, now: new Date('2026-11-21T12:00:00.000Z') });
}
const line = (productId: string, total: number) => ({ productId, price: { totalPrice: { total } } });
const taxOf = (result: TaxEngineResult, index: number): LineTax | null =>
  (result.payload.order as { products: Array<{ tax: LineTax | null }> }).products[index]!.tax;

describe('a line priced per unit with a negative factor', () => {
  it('a negative unit price times a negative quantity is no sale: tax null, NEGATIVE_AMOUNT, as with one negative factor', () => {
    const result = run([
      // −5.00 × −2 would be +10.00 (ICMS 1.00): not taxed
      { productId: 'flat', quantity: -2, price: { unitPrice: { total: -5 } } },
      { productId: 'flat', quantity: 2, price: { unitPrice: { total: -5 } } },
      { productId: 'flat', quantity: '-0.5', unitPrice: '-4.00' },
      // −1.00 × 0 is 0.00, but its price is negative all the same
      { productId: 'flat', quantity: 0, price: { unitPrice: -1 } },
      // "-0.000" is no negative quantity: 5.00 × 0 = 0.00, taxed 0
      { productId: 'flat', quantity: '-0.000', price: { unitPrice: 5 } },
    ]);
    expect([0, 1, 2, 3].map((index) => taxOf(result, index))).toEqual([null, null, null, null]);
    expect(taxOf(result, 4)).toMatchObject({ ICMS_base: 0, ICMS_value: 0 });
    expect(result.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['NEGATIVE_AMOUNT', 'order.products[0]'],
      ['NEGATIVE_AMOUNT', 'order.products[1]'],
      ['NEGATIVE_AMOUNT', 'order.products[2]'],
      ['NEGATIVE_AMOUNT', 'order.products[3]'],
    ]);
    expect(result.warnings[0]!.message).toBe('unitPrice or quantity is negative (-5 × -2)');
    expect(result.summary.totals.base).toBe(0);
  });
});

describe('numeric text beyond the digits the service reads', () => {
  it('a unit price or quantity sent as such text is not multiplied: tax null, AMOUNT_OUT_OF_RANGE', () => {
    const digits = 300_000;
    const result = run([
      { productId: 'flat', quantity: `0.${'3'.repeat(digits)}`, price: { unitPrice: { total: `1.${'7'.repeat(digits)}` } } },
      { productId: 'flat', quantity: '2', unitPrice: '1'.repeat(21) },
      // 30 decimals is within the bound: 12.00 × 0.500…01 = 6.00000…012 → 6.00; ICMS 0.60
      { productId: 'flat', quantity: `0.5${'0'.repeat(28)}1`, price: { unitPrice: '12' } },
    ]);
    expect(taxOf(result, 0)).toBeNull();
    expect(taxOf(result, 1)).toBeNull();
    expect(taxOf(result, 2)).toMatchObject({ ICMS_base: 6, ICMS_value: 0.6, amountFrom: 'unitPrice×quantity' });
    expect(result.warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['AMOUNT_OUT_OF_RANGE', 'order.products[0]'],
      ['AMOUNT_OUT_OF_RANGE', 'order.products[1]'],
    ]);
    expect(result.warnings[0]!.message).toContain('more digits than numeric text may have');
  });

  it('a JSON number is multiplied whatever its decimals: its text has at most 17 significant digits', () => {
    // 1e-35 × 1.00 = 0.00…01 → 0.00: ICMS 0
    const result = run([{ productId: 'flat', quantity: 1e-35, price: { unitPrice: { total: 1 } } }]);
    expect(taxOf(result, 0)).toMatchObject({ ICMS_base: 0, ICMS_value: 0 });
    expect(result.warnings).toEqual([]);
  });
});

describe('sums past Number.MAX_SAFE_INTEGER cents', () => {
  const nine = Array.from({ length: 9 }, () => line('flat', 9999999999999.99));

  it('lines whose amounts add up past it: reported, for the order path to refuse; up to it, exact', () => {
    // 9 × 999999999999999 cents = 8999999999999991; + 7199254741002 = 9007199254740993, 2 past 2^53 − 1
    expect(run([...nine, line('flat', 71992547410.02)]).totalsBeyondSafeCents).toBe(true);
    // + 7199254741000 = 9007199254740991 = Number.MAX_SAFE_INTEGER: exact
    const atTheBound = run([...nine, line('flat', 71992547410)]);
    expect(atTheBound.totalsBeyondSafeCents).toBe(false);
    expect(atTheBound.summary.totals.base * 100).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("the taxes' sum past it while the base is within", () => {
    // ICMS, PIS and COFINS at 100 %, ICMS kept in the PIS/COFINS base: total_tax = 3 × the base.
    // 3002399751580331 cents × 3 = 9007199254740993 > 9007199254740991
    const rule = { ...GROUP.taxMatrix['99999999']!, ICMS_rate: 100, PIS_rate: 100, COFINS_rate: 100 };
    const group = { ...GROUP, taxMatrix: { '99999999': rule }, settings: { includeIcmsInPisCofinsBase: true } };
    expect(run([line('flat', 30023997515803.31)], {}, group).totalsBeyondSafeCents).toBe(true);
    // 3002399751580330 × 3 = 9007199254740990: within
    expect(run([line('flat', 30023997515803.3)], {}, group).totalsBeyondSafeCents).toBe(false);
  });

  it("with order-level amounts, the lines' total counts untaxed lines too", () => {
    // Taxed 8999999999999991 cents; with the untaxed 7199254741002 the lines' total is 9007199254740993
    const result = run([...nine, line('ghost', 71992547410.02)], { serviceCharge: { amount: 0 } });
    expect(result.summary.totals.base * 100).toBe(8999999999999991);
    expect(result.totalsBeyondSafeCents).toBe(true);
  });
});
