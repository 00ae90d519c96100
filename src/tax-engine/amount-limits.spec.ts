import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax, TaxEngineResult } from './tax-engine.js';

/**
 * What the engine does not tax, or not on the amount sent: numeric text beyond the digits the service
 * reads. The request refuses such orders before the engine sees them; the engine also taxes stored
 * orders again (a transfer, a preview of a fiscal change), which were not checked the same way.
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

function run(products: unknown[], adjustments: Record<string, unknown> = {}): TaxEngineResult {
  const payload = { orderId: 'o', store: { id: 's' }, order: { products, ...adjustments } };
  return engine.enrich({ group: GROUP, categories: CATEGORIES, payload, now: new Date('2026-11-21T12:00:00.000Z') });
}
const taxOf = (result: TaxEngineResult, index: number): LineTax | null =>
  (result.payload.order as { products: Array<{ tax: LineTax | null }> }).products[index]!.tax;

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
