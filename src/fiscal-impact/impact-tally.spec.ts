import { DefaultTaxEngine } from '../tax-engine/default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';
import type { TaxMatrix, TaxRule } from '../tax-engine/tax-rule.js';
import { batchesOf } from './fiscal-impact.service.js';
import { ImpactTally, LARGEST_CHANGES, MAX_LISTED_LOST_LINES } from './impact-tally.js';

const engine = new DefaultTaxEngine();
const FOOD = '21069090';
const rule = (overrides: Partial<TaxRule> = {}): TaxRule => ({
  NCM: FOOD,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '04',
  PIS_rate: 0.65,
  CST_COFINS: '04',
  COFINS_rate: 3,
  ...overrides,
});
const group = (taxMatrix: TaxMatrix): FiscalGroupSnapshot => ({
  id: 'g',
  externalId: null,
  uf: 'SP',
  taxRegime: null,
  taxMatrix,
  settings: {},
});
const categories: CategoryIndex = { byProductId: new Map([['food', FOOD]]), byExternalProductId: new Map() };
const line = (total: number, productId = 'food') => ({ productId, price: { totalPrice: { total } } });
const payload = (lines: unknown[]) => ({ orderId: 'o', order: { products: lines } });

function tally(before: TaxMatrix, after: TaxMatrix, orders: unknown[][]): ImpactTally {
  const result = new ImpactTally();
  orders.forEach((lines, index) => {
    const order = payload(lines);
    result.add({
      id: `row-${index}`,
      orderId: `order-${index}`,
      receivedAt: new Date(Date.UTC(2026, 10, 26, 12, 0, index)),
      before: engine.enrich({ group: group(before), categories, payload: order }),
      after: engine.enrich({ group: group(after), categories, payload: order }),
    });
  });
  return result;
}

describe('ImpactTally', () => {
  it('reports the reform values only when a rule carries them, summed in cents', () => {
    // 100.00 at ICMS 18 % = 18.00; PIS/COFINS CST 04: none. Reform base 100.00 − 18.00 = 82.00:
    // CBS 0.9 % = 0.738 → 0.74, with 1 % = 0.82; IBS UF 0.1 % = 0.082 → 0.08 on both sides.
    const reform = { [FOOD]: rule({ CST_IBSCBS: '000', cClassTrib: '000001', CBS_rate: 0.9, IBS_UF_rate: 0.1 }) };
    const raised = { [FOOD]: { ...reform[FOOD]!, CBS_rate: 1 } };
    const figures = tally(reform, raised, [[line(100)], [line(100)]]).figures();
    expect(figures.totals.CBS_value).toEqual({ before: 1.48, after: 1.64, change: 0.16 });
    expect(figures.totals.IBS_UF_value).toEqual({ before: 0.16, after: 0.16, change: 0 });
    expect(figures.totals.total_tax).toEqual({ before: 36, after: 36, change: 0 });
    // Only the CBS changes: the lines still count as changed.
    expect(figures.changed).toEqual({ orders: 2, lines: 2 });
    expect(figures.largestChanges[0]!.change).toEqual({
      ICMS_value: 0,
      PIS_value: 0,
      COFINS_value: 0,
      FCP_value: 0,
      total_tax: 0,
      CBS_value: 0.08,
      IBS_UF_value: 0,
    });

    const plain = tally({ [FOOD]: rule() }, { [FOOD]: rule({ ICMS_rate: 20 }) }, [[line(100)]]).figures();
    expect(Object.keys(plain.totals)).toEqual(['ICMS_value', 'PIS_value', 'COFINS_value', 'FCP_value', 'total_tax']);
  });

  it('keeps the 20 largest changes of total tax, largest first, the first seen on a tie', () => {
    // Line n of 25 costs n reais: 18 % → 20 % adds 2 % of it, n × 0.02 (lines 24 and 25: 0.48 and 0.50).
    const amounts = Array.from({ length: 25 }, (_, index) => index + 1);
    const figures = tally({ [FOOD]: rule() }, { [FOOD]: rule({ ICMS_rate: 20 }) }, [
      amounts.map((amount) => line(amount)),
      [line(25)],
    ]).figures();
    expect(figures.largestChanges).toHaveLength(LARGEST_CHANGES);
    expect(figures.largestChanges.slice(0, 3).map((each) => [each.orderId, each.path, each.change.total_tax])).toEqual([
      ['order-0', 'order.products[24]', 0.5],
      ['order-1', 'order.products[0]', 0.5],
      ['order-0', 'order.products[23]', 0.48],
    ]);
    // The 20th: line 7 of the first order (0.14); lines 1 to 6 are left out.
    expect(figures.largestChanges[LARGEST_CHANGES - 1]).toMatchObject({ path: 'order.products[6]', change: { total_tax: 0.14 } });
    expect(figures.changed).toEqual({ orders: 2, lines: 26 });
  });

  it('counts every line that loses its taxes and lists the first 100, with the warning when the order listed it', () => {
    const lines = [...Array.from({ length: 100 }, () => line(1, 'unknown')), ...Array.from({ length: 150 }, () => line(10))];
    const figures = tally({ [FOOD]: rule() }, {}, [lines]).figures();
    expect(figures.linesLosingTaxes.lines).toBe(150);
    expect(figures.linesLosingTaxes.orders).toBe(1);
    expect(figures.linesLosingTaxes.listed).toHaveLength(MAX_LISTED_LOST_LINES);
    // The 100 unknown products filled the order's list of warnings: the lost lines' own were counted, not listed.
    expect(figures.linesLosingTaxes.listed[0]).toMatchObject({ path: 'order.products[100]', after: null, warning: null });
    expect(figures.compared).toEqual({ orders: 1, lines: 250 });

    const listed = tally({ [FOOD]: rule() }, {}, [[line(10)]]).figures();
    expect(listed.linesLosingTaxes.listed[0]!.warning).toMatchObject({ code: 'NCM_NOT_IN_MATRIX', path: 'order.products[0]' });
    // 10.00 × 18 % = 1.80 lost.
    expect(listed.totals.ICMS_value).toEqual({ before: 1.8, after: 0, change: -1.8 });
  });
});

describe('batchesOf', () => {
  it('names each changed line by its product’s or modifier’s name, beside its product id', () => {
    const burger = { ...line(10), name: 'Smash burger' };
    const withExtra = {
      ...line(20),
      name: 'Combo',
      modifierGroups: [{ name: 'Extras', selectedModifiers: [{ ...line(5), name: 'Cheese' }] }],
    };
    const nameless = line(1);
    const figures = tally({ [FOOD]: rule() }, { [FOOD]: rule({ ICMS_rate: 12 }) }, [[burger, withExtra, nameless]]).figures();
    const named = figures.largestChanges.map((changed) => [changed.path, changed.productId, changed.productName]);
    expect(named).toEqual([
      ['order.products[1]', 'food', 'Combo'],
      ['order.products[0]', 'food', 'Smash burger'],
      ['order.products[1].modifierGroups[0].selectedModifiers[0]', 'food', 'Cheese'],
      ['order.products[2]', 'food', null],
    ]);
  });

  it('cuts at 250 orders or 4 MB, an order larger than that alone', () => {
    const small = Array.from({ length: 600 }, (_, index) => ({ id: `s${index}`, bytes: 1000 }));
    expect(batchesOf(small).map((batch) => batch.length)).toEqual([250, 250, 100]);
    const large = [
      { id: 'a', bytes: 3_000_000 },
      { id: 'b', bytes: 2_000_000 },
      { id: 'huge', bytes: 9_000_000 },
      { id: 'c', bytes: 10 },
    ];
    expect(batchesOf(large)).toEqual([['a'], ['b'], ['huge'], ['c']]);
    expect(batchesOf([])).toEqual([]);
  });
});
