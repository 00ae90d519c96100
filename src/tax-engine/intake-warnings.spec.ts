import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot } from './tax-engine.js';

const engine = new DefaultTaxEngine();
const group: FiscalGroupSnapshot = {
  id: 'g-1',
  externalId: null,
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  taxMatrix: {
    '21069090': {
      NCM: '21069090',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
    },
  },
  settings: {},
};
const categories: CategoryIndex = { byProductId: new Map([['burger', '21069090']]), byExternalProductId: new Map() };
const order = (intakeWarnings: unknown) => ({
  orderId: 'o-1',
  order: { products: [{ productId: 'burger', quantity: 1, price: { totalPrice: { total: 10 } } }] },
  intakeWarnings,
});

describe("the engine reports a marketplace document's intake warnings", () => {
  const targetNotFound = {
    code: 'DISCOUNT_TARGET_NOT_FOUND',
    path: 'sourceOrder.benefits[0].targetId',
    message: 'targetId "1" names no item of the order (by index, else id): the benefit was applied to the whole cart (ITEMS)',
  };

  it('first, as the mapped order carries them, so that taxing a stored order again reports them again', () => {
    const result = engine.enrich({ group, categories, payload: order([targetNotFound]) });
    expect(result.summary.warnings).toEqual([targetNotFound]);
    expect(result.warningCount).toBe(1);
    // The line is taxed as usual: 10.00 at 18 % ICMS = 1.80.
    expect(result.summary.totals.ICMS_value).toBe(1.8);
  });

  it('skips what is not an intake warning: another code, a missing sentence, text past 1000 characters', () => {
    const result = engine.enrich({
      group,
      categories,
      payload: order([
        { code: 'NCM_NOT_IN_MATRIX', path: 'order.products[0]', message: 'planted' },
        { code: 'DISCOUNT_SPONSOR_UNKNOWN', path: 'sourceOrder.benefits[0]' },
        { ...targetNotFound, message: 'x'.repeat(1001) },
        'DISCOUNT_TARGET_NOT_FOUND',
      ]),
    });
    expect(result.summary.warnings).toEqual([]);
    expect(engine.enrich({ group, categories, payload: order('none') }).summary.warnings).toEqual([]);
  });
});
