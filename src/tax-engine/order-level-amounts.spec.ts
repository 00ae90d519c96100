import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax, TaxEngineResult } from './tax-engine.js';
import type { FiscalGroupSettings, TaxMatrix, TaxRule } from './tax-rule.js';

const engine = new DefaultTaxEngine();
const NOW = new Date('2026-11-21T12:00:00.000Z');

const rule = (ncm: string, overrides: Partial<TaxRule> = {}): TaxRule => ({
  NCM: ncm,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  ...overrides,
});
const MATRIX: TaxMatrix = {
  '21069090': rule('21069090'),
  '04069000': rule('04069000', { ICMS_rate: 7 }),
  // ICMS 10 %, no PIS/COFINS: the shares show plainly in the values.
  '99999999': rule('99999999', { ICMS_rate: 10, PIS_rate: 0, COFINS_rate: 0 }),
  '19059090': rule('19059090', { CST_ICMS: '020', ICMS_rate: 7, ICMS_base_reduction: 41.67 }),
  '18063210': rule('18063210', { CBS_rate: 0.9 }),
};
const CATEGORIES: CategoryIndex = {
  byProductId: new Map([
    ['burger', '21069090'],
    ['cheese', '04069000'],
    ['flat', '99999999'],
    ['bread', '19059090'],
    ['chocolate', '18063210'],
  ]),
  byExternalProductId: new Map(),
};

type Item = { productId: string; price: { totalPrice: { total: number } }; modifierGroups?: unknown[] };
const item = (productId: string, total: number, modifiers: Item[] = []): Item => ({
  productId,
  price: { totalPrice: { total } },
  ...(modifiers.length ? { modifierGroups: [{ name: 'extras', selectedModifiers: modifiers }] } : {}),
});
function run(products: unknown[], adjustments: Record<string, unknown>, settings: FiscalGroupSettings = {}): TaxEngineResult {
  const group: FiscalGroupSnapshot = { id: 'g', externalId: null, uf: 'SP', taxRegime: 'LUCRO_PRESUMIDO', taxMatrix: MATRIX, settings };
  const payload = { orderId: 'o', store: { id: 's' }, order: { products, ...adjustments } };
  return engine.enrich({ group, categories: CATEGORIES, payload, now: NOW });
}
const lines = (result: TaxEngineResult) => (result.payload.order as { products: Array<Record<string, any>> }).products;
const taxOf = (result: TaxEngineResult, index: number): LineTax => lines(result)[index]!.tax;
const shares = (tax: LineTax) => [tax.discount, tax.freight, tax.otherCharges, tax.netAmount];
const merchant = (amount: unknown, extra: Record<string, unknown> = {}) => ({ amount, sponsor: 'MERCHANT', target: 'ITEMS', ...extra });

describe('order-level amounts', () => {
  it('a discount of the whole order: proportional, half-up, the remainder on the last item; taxes on the net amounts', () => {
    const result = run([item('burger', 10), item('burger', 10), item('burger', 10)], { discounts: [merchant(5)] });
    // 5.00 × 10/30 = 1.6667 → 1.67, 1.67; last = 5.00 − 3.34 = 1.66
    // net 8.33: ICMS 1.4994 → 1.50; PIS/COFINS base 6.83; PIS 0.044395 → 0.04; COFINS 0.2049 → 0.20
    // net 8.34: ICMS 1.5012 → 1.50; PIS/COFINS base 6.84; PIS 0.04446 → 0.04; COFINS 0.2052 → 0.21
    expect(shares(taxOf(result, 0))).toEqual([1.67, 0, 0, 8.33]);
    expect(shares(taxOf(result, 1))).toEqual([1.67, 0, 0, 8.33]);
    expect(shares(taxOf(result, 2))).toEqual([1.66, 0, 0, 8.34]);
    expect(taxOf(result, 0)).toMatchObject({ ICMS_base: 8.33, ICMS_value: 1.5, PIS_base: 6.83, PIS_value: 0.04, COFINS_value: 0.2 });
    expect(taxOf(result, 2)).toMatchObject({ ICMS_base: 8.34, ICMS_value: 1.5, PIS_base: 6.84, PIS_value: 0.04, COFINS_value: 0.21 });
    // totals: base = 8.33 + 8.33 + 8.34 = 25.00; ICMS 4.50; PIS 0.12; COFINS 0.61; total 5.23
    expect(result.summary.totals).toEqual({
      base: 25,
      ICMS_value: 4.5,
      PIS_value: 0.12,
      COFINS_value: 0.61,
      total_tax: 5.23,
      discount: 5,
      freight: 0,
      otherCharges: 0,
    });
    expect(result.summary.outsideInvoice).toBeUndefined();
  });

  it('an ITEM discount is split over that line and its modifiers only', () => {
    const result = run([item('burger', 20, [item('cheese', 5)]), item('burger', 10)], {
      discounts: [merchant(2.5, { target: 'ITEM', productIndex: 0 })],
    });
    // over 20.00 + 5.00: 2.50 × 20/25 = 2.00; last (the modifier) = 0.50; line 1 takes nothing
    // burger net 18.00: ICMS 3.24; base 14.76; PIS 0.09594 → 0.10; COFINS 0.4428 → 0.44
    // cheese net 4.50: ICMS 7 % = 0.315 → 0.32; base 4.18; PIS 0.02717 → 0.03; COFINS 0.1254 → 0.13
    expect(shares(taxOf(result, 0))).toEqual([2, 0, 0, 18]);
    expect(taxOf(result, 0)).toMatchObject({ ICMS_value: 3.24, PIS_value: 0.1, COFINS_value: 0.44 });
    const cheese = lines(result)[0]!.modifierGroups[0].selectedModifiers[0].tax as LineTax;
    expect(shares(cheese)).toEqual([0.5, 0, 0, 4.5]);
    expect(cheese).toMatchObject({ ICMS_base: 4.5, ICMS_value: 0.32, PIS_base: 4.18, PIS_value: 0.03, COFINS_value: 0.13 });
    expect(shares(taxOf(result, 1))).toEqual([0, 0, 0, 10]);
  });

  it('a discount above what it applies to is capped there, with DISCOUNT_ABOVE_AMOUNT', () => {
    const result = run([item('flat', 10), item('flat', 20)], { discounts: [merchant(50)] });
    // 50.00 on 30.00 of items: 30.00 taken (10.00 and 20.00), nets 0, taxes 0
    expect(shares(taxOf(result, 0))).toEqual([10, 0, 0, 0]);
    expect(shares(taxOf(result, 1))).toEqual([20, 0, 0, 0]);
    expect(result.summary.totals).toMatchObject({ base: 0, ICMS_value: 0, discount: 30 });
    expect(result.warnings).toEqual([
      { code: 'DISCOUNT_ABOVE_AMOUNT', path: 'order.discounts[0]', message: expect.stringContaining('30.00 was applied') },
    ]);
  });

  it('a share that would take an item below 0 moves on to the next item', () => {
    const result = run([item('flat', 3), item('flat', 3)], {
      discounts: [merchant(2, { target: 'ITEM', productIndex: 0 }), merchant(3)],
    });
    // first: 2.00 on line 0 → 1.00 left of it. second: 3.00 × 3/6 = 1.50 on line 0, above its 1.00:
    // 0.50 moves to line 1, which takes 1.50 + 0.50 = 2.00. Nets 0.00 and 1.00; ICMS 0 and 0.10
    expect(shares(taxOf(result, 0))).toEqual([3, 0, 0, 0]);
    expect(shares(taxOf(result, 1))).toEqual([2, 0, 0, 1]);
    expect([taxOf(result, 0).ICMS_value, taxOf(result, 1).ICMS_value]).toEqual([0, 0.1]);
    expect(result.warnings).toEqual([]);
  });

  describe('delivery fee', () => {
    it('the store delivers: a DELIVERY_FEE discount lowers the fee, the rest is split as freight', () => {
      const result = run([item('flat', 10), item('flat', 30)], {
        deliveryFee: { amount: 8, deliveredBy: 'MERCHANT' },
        discounts: [{ amount: 3, sponsor: 'MERCHANT', target: 'DELIVERY_FEE' }],
      });
      // fee 8.00 − 3.00 = 5.00; 5.00 × 10/40 = 1.25; last = 3.75
      // nets 11.25 (ICMS 1.125 → 1.13) and 33.75 (ICMS 3.375 → 3.38): ICMS total 4.51
      expect(shares(taxOf(result, 0))).toEqual([0, 1.25, 0, 11.25]);
      expect(shares(taxOf(result, 1))).toEqual([0, 3.75, 0, 33.75]);
      expect(result.summary.totals).toMatchObject({ base: 45, ICMS_value: 4.51, discount: 0, freight: 5, otherCharges: 0 });
    });

    it('a DELIVERY_FEE discount above the fee brings it to 0, with DISCOUNT_ABOVE_AMOUNT', () => {
      const result = run([item('flat', 10)], {
        deliveryFee: { amount: 2, deliveredBy: 'MERCHANT' },
        discounts: [{ amount: 3, sponsor: 'MERCHANT', target: 'DELIVERY_FEE' }],
      });
      expect(shares(taxOf(result, 0))).toEqual([0, 0, 0, 10]);
      expect(result.warnings.map((w) => [w.code, w.path])).toEqual([['DISCOUNT_ABOVE_AMOUNT', 'order.discounts[0]']]);
    });

    it('the platform delivers: the fee and its discount stay outside the invoice', () => {
      const result = run([item('flat', 10)], {
        deliveryFee: { amount: 8, deliveredBy: 'PLATFORM' },
        discounts: [{ amount: 3, sponsor: 'MERCHANT', target: 'DELIVERY_FEE' }],
      });
      // Nothing enters the invoice: the line keeps today's shape, ICMS 10 % of 10.00 = 1.00
      expect(taxOf(result, 0)).not.toHaveProperty('netAmount');
      expect(taxOf(result, 0).ICMS_value).toBe(1);
      expect(result.summary.totals).toEqual({ base: 10, ICMS_value: 1, PIS_value: 0, COFINS_value: 0, total_tax: 1 });
      expect(result.summary.outsideInvoice).toEqual([
        { kind: 'DISCOUNT', amount: 3, reason: 'DELIVERY_FEE_OUTSIDE_INVOICE' },
        { kind: 'DELIVERY_FEE', amount: 8, reason: 'DELIVERED_BY_PLATFORM' },
      ]);
      expect(result.summary.thirdPartyPayments).toBeUndefined();
    });

    it('deliveryFeeOnInvoice ALWAYS puts a fee the platform delivers on the invoice; NEVER keeps the store’s own out', () => {
      const fee = (deliveredBy: string) => ({ deliveryFee: { amount: 5, deliveredBy } });
      // ALWAYS: 5.00 freight on the one item, net 25.00, ICMS 2.50
      const always = run([item('flat', 20)], fee('PLATFORM'), { deliveryFeeOnInvoice: 'ALWAYS' });
      expect(shares(taxOf(always, 0))).toEqual([0, 5, 0, 25]);
      expect(taxOf(always, 0).ICMS_value).toBe(2.5);
      const never = run([item('flat', 20)], fee('MERCHANT'), { deliveryFeeOnInvoice: 'NEVER' });
      expect(taxOf(never, 0).ICMS_value).toBe(2);
      expect(never.summary.outsideInvoice).toEqual([{ kind: 'DELIVERY_FEE', amount: 5, reason: 'DELIVERY_FEE_NEVER_ON_INVOICE' }]);
    });
  });

  describe('sponsors', () => {
    const discounts = [
      merchant(2),
      merchant(5, { sponsor: 'PLATFORM', description: 'Platform coupon' }),
      merchant(1, { sponsor: 'THIRD_PARTY' }),
    ];

    it('only the store’s own discounts lower the base; the others are payments from someone else', () => {
      const result = run([item('flat', 20)], { discounts });
      // net 20.00 − 2.00 = 18.00; ICMS 1.80
      expect(shares(taxOf(result, 0))).toEqual([2, 0, 0, 18]);
      expect(taxOf(result, 0).ICMS_value).toBe(1.8);
      expect(result.summary.outsideInvoice).toEqual([
        { kind: 'DISCOUNT', amount: 5, reason: 'PAID_BY_PLATFORM' },
        { kind: 'DISCOUNT', amount: 1, reason: 'PAID_BY_THIRD_PARTY' },
      ]);
      expect(result.summary.thirdPartyPayments).toEqual([
        { amount: 5, sponsor: 'PLATFORM', description: 'Platform coupon' },
        { amount: 1, sponsor: 'THIRD_PARTY' },
      ]);
    });

    it("carries a discount's description code and parameters to its payment; a malformed pair is left out", () => {
      const labelled = merchant(5, {
        sponsor: 'PLATFORM',
        description: 'iFood benefit sponsored by IFOOD: Cupom',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom' },
      });
      const unknownCode = merchant(1, {
        sponsor: 'PLATFORM',
        description: 'x',
        descriptionCode: 'NOT_A_CODE',
        descriptionParams: { marketplace: 'iFood' },
      });
      const numberParam = merchant(1, {
        sponsor: 'PLATFORM',
        description: 'y',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 7 },
      });
      const result = run([item('flat', 20)], { discounts: [labelled, unknownCode, numberParam] });
      expect(result.summary.thirdPartyPayments).toEqual([
        {
          amount: 5,
          sponsor: 'PLATFORM',
          description: 'iFood benefit sponsored by IFOOD: Cupom',
          descriptionCode: 'SPONSORED_BY',
          descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom' },
        },
        { amount: 1, sponsor: 'PLATFORM', description: 'x' },
        { amount: 1, sponsor: 'PLATFORM', description: 'y' },
      ]);
    });

    it('platformDiscountsReduceBase: every discount lowers the base', () => {
      const result = run([item('flat', 20)], { discounts }, { platformDiscountsReduceBase: true });
      // net 20.00 − 2.00 − 5.00 − 1.00 = 12.00; ICMS 1.20
      expect(shares(taxOf(result, 0))).toEqual([8, 0, 0, 12]);
      expect(taxOf(result, 0).ICMS_value).toBe(1.2);
      expect(result.summary.outsideInvoice).toBeUndefined();
      expect(result.summary.thirdPartyPayments).toBeUndefined();
    });
  });

  describe('service charge: 10 % of the lines’ total', () => {
    it('10.00 on 100.00 stays outside the invoice', () => {
      const result = run([item('flat', 60), item('flat', 40)], { serviceCharge: { amount: 10 } });
      // 10.00 × 10 = 100.00, not above 100.00: outside; ICMS 6.00 + 4.00
      expect(result.summary.outsideInvoice).toEqual([{ kind: 'SERVICE_CHARGE', amount: 10, reason: 'SERVICE_CHARGE_AT_MOST_10_PERCENT' }]);
      expect(result.summary.totals).toEqual({ base: 100, ICMS_value: 10, PIS_value: 0, COFINS_value: 0, total_tax: 10 });
      expect(result.warnings).toEqual([]);
    });

    it('10.01 on 100.00 enters the invoice as other charges, with SERVICE_CHARGE_ABOVE_10_PERCENT', () => {
      const result = run([item('flat', 60), item('flat', 40)], { serviceCharge: { amount: '10.01' } });
      // 10.01 × 60/100 = 6.006 → 6.01; last = 4.00. Nets 66.01 (ICMS 6.601 → 6.60) and 44.00 (ICMS 4.40)
      expect(shares(taxOf(result, 0))).toEqual([0, 0, 6.01, 66.01]);
      expect(shares(taxOf(result, 1))).toEqual([0, 0, 4, 44]);
      expect(result.summary.totals).toMatchObject({ base: 110.01, ICMS_value: 11, otherCharges: 10.01 });
      expect(result.warnings.map((w) => [w.code, w.path])).toEqual([['SERVICE_CHARGE_ABOVE_10_PERCENT', 'order.serviceCharge']]);
      expect(result.summary.outsideInvoice).toBeUndefined();
    });

    it('the lines’ total counts every line and modifier, taxed or not; the shares go to the taxed items only', () => {
      const products = [item('flat', 100, [item('ghost', 50)]), { productId: 'ghost', quantity: 2, price: { unitPrice: { total: 25 } } }];
      // Lines' total 100.00 + 50.00 + 2 × 25.00 = 200.00. 15.00 × 10 = 150.00, not above 200.00: outside; ICMS 100.00 × 10 % = 10.00
      const outside = run(products, { serviceCharge: { amount: 15 } });
      expect(outside.summary.outsideInvoice).toEqual([{ kind: 'SERVICE_CHARGE', amount: 15, reason: 'SERVICE_CHARGE_AT_MOST_10_PERCENT' }]);
      expect(taxOf(outside, 0).ICMS_value).toBe(10);
      expect(outside.warnings.map((w) => w.code)).toEqual(['PRODUCT_CATEGORY_NOT_FOUND', 'PRODUCT_CATEGORY_NOT_FOUND']);
      // 20.01 × 10 = 200.10, above 200.00: inside, all of it on the one taxed line; net 120.01, ICMS 12.001 → 12.00
      const inside = run(products, { serviceCharge: { amount: 20.01 } });
      expect(shares(taxOf(inside, 0))).toEqual([0, 0, 20.01, 120.01]);
      expect(taxOf(inside, 0).ICMS_value).toBe(12);
      expect(inside.warnings[2]).toMatchObject({ code: 'SERVICE_CHARGE_ABOVE_10_PERCENT', path: 'order.serviceCharge' });
      expect(inside.warnings[2]!.message).toContain("lines' total 200.00");
    });

    it('serviceChargeInIcmsBase: 10 % or less enters too, without a warning', () => {
      const result = run([item('flat', 60), item('flat', 40)], { serviceCharge: { amount: 10 } }, { serviceChargeInIcmsBase: true });
      // 10.00 × 60/100 = 6.00; last = 4.00; ICMS 6.60 + 4.40 = 11.00
      expect(shares(taxOf(result, 0))).toEqual([0, 0, 6, 66]);
      expect(result.summary.totals).toMatchObject({ ICMS_value: 11, otherCharges: 10 });
      expect(result.warnings).toEqual([]);
    });
  });

  it('other charges: the store’s enter the invoice, the platform’s stay outside', () => {
    const result = run([item('flat', 30)], {
      otherCharges: [
        { amount: 2, chargedBy: 'MERCHANT', description: 'Packaging' },
        { amount: 1, chargedBy: 'PLATFORM' },
      ],
    });
    // net 30.00 + 2.00 = 32.00; ICMS 3.20
    expect(shares(taxOf(result, 0))).toEqual([0, 0, 2, 32]);
    expect(taxOf(result, 0).ICMS_value).toBe(3.2);
    expect(result.summary.outsideInvoice).toEqual([{ kind: 'OTHER_CHARGE', amount: 1, reason: 'CHARGED_BY_PLATFORM' }]);
  });

  it('the reduced ICMS base applies after the discount', () => {
    const result = run([item('bread', 150)], { discounts: [merchant(50)] });
    // net 100.00; ICMS base = 100.00 × (100 − 41.67) / 100 = 58.33; ICMS 7 % = 4.0831 → 4.08
    // PIS/COFINS base = 100.00 − 4.08 = 95.92; PIS 0.62348 → 0.62; COFINS 2.8776 → 2.88; total 7.58
    expect(taxOf(result, 0)).toMatchObject({
      netAmount: 100,
      ICMS_base: 58.33,
      ICMS_value: 4.08,
      PIS_base: 95.92,
      PIS_value: 0.62,
      COFINS_value: 2.88,
      total_tax: 7.58,
    });
  });

  it('includeIcmsInPisCofinsBase: the PIS/COFINS base is the net amount', () => {
    const result = run([item('burger', 50)], { discounts: [merchant(10)] }, { includeIcmsInPisCofinsBase: true });
    // net 40.00; ICMS 7.20; PIS 40.00 × 0.65 % = 0.26; COFINS 1.20
    expect(taxOf(result, 0)).toMatchObject({ netAmount: 40, ICMS_value: 7.2, PIS_base: 40, PIS_value: 0.26, COFINS_value: 1.2 });
  });

  it('the IBS/CBS base starts from the net amount', () => {
    const result = run([item('chocolate', 100)], { discounts: [merchant(10)] });
    // net 90.00; ICMS 16.20; PIS/COFINS base 73.80: PIS 0.4797 → 0.48, COFINS 2.214 → 2.21
    // IBS/CBS base = 90.00 − 16.20 − 0.48 − 2.21 = 71.11; CBS 0.9 % = 0.63999 → 0.64
    expect(taxOf(result, 0)).toMatchObject({ IBSCBS_base: 71.11, CBS_value: 0.64 });
  });

  it('items without taxes take no share: the taxed items carry all of it', () => {
    const result = run([item('flat', 10), item('ghost', 10)], { discounts: [merchant(4)] });
    expect(shares(taxOf(result, 0))).toEqual([4, 0, 0, 6]);
    expect(lines(result)[1]!.tax).toBeNull();
  });

  it('with no taxed item, a charge is listed outside the invoice as having nothing to split over', () => {
    const result = run([item('ghost', 10)], { deliveryFee: { amount: 5, deliveredBy: 'MERCHANT' } });
    expect(result.summary.outsideInvoice).toEqual([{ kind: 'DELIVERY_FEE', amount: 5, reason: 'NO_TAXED_ITEM' }]);
  });

  it('an amount with more than 2 decimals is rounded half-up with AMOUNT_ROUNDED at its path, as line amounts are', () => {
    const result = run([item('flat', 10), item('flat', 10)], {
      discounts: [merchant(1.005)],
      deliveryFee: { amount: '3.333', deliveredBy: 'MERCHANT' },
      otherCharges: [{ amount: 0.994, chargedBy: 'MERCHANT' }],
    });
    // Discount 1.005 → 1.01: 1.01 × 10/20 = 0.505 → 0.51, last 0.50. Fee 3.333 → 3.33: 1.665 → 1.67, last 1.66.
    // Charge 0.994 → 0.99: 0.495 → 0.50, last 0.49. Nets 10 − 0.51 + 1.67 + 0.50 = 11.66 and 10 − 0.50 + 1.66 + 0.49 = 11.65;
    // ICMS 1.166 → 1.17 and 1.165 → 1.17.
    expect(shares(taxOf(result, 0))).toEqual([0.51, 1.67, 0.5, 11.66]);
    expect(shares(taxOf(result, 1))).toEqual([0.5, 1.66, 0.49, 11.65]);
    expect(result.summary.totals).toMatchObject({ discount: 1.01, freight: 3.33, otherCharges: 0.99, ICMS_value: 2.34 });
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([
      ['AMOUNT_ROUNDED', 'order.discounts[0].amount'],
      ['AMOUNT_ROUNDED', 'order.deliveryFee.amount'],
      ['AMOUNT_ROUNDED', 'order.otherCharges[0].amount'],
    ]);
    expect(result.warnings[0]!.message).toBe('amount 1.005 has more than 2 decimals; applied as 1.01');
  });

  it('skips malformed entries (a stored order re-taxed): the well-formed ones still count', () => {
    const result = run([item('flat', 10)], {
      discounts: [{ amount: 'x', sponsor: 'MERCHANT', target: 'ITEMS' }, merchant(1)],
      deliveryFee: 'free',
    });
    expect(shares(taxOf(result, 0))).toEqual([1, 0, 0, 9]);
  });

  it('empty lists and nulls are orders without order-level amounts', () => {
    const result = run([item('flat', 10)], { discounts: [], otherCharges: [], deliveryFee: null });
    expect(taxOf(result, 0)).not.toHaveProperty('netAmount');
    expect(result.summary.totals).toEqual({ base: 10, ICMS_value: 1, PIS_value: 0, COFINS_value: 0, total_tax: 1 });
  });
});

describe('lines priced per unit', () => {
  it('amount = round(unitPrice × quantity, 2), with amountFrom', () => {
    const result = run(
      [
        { productId: 'burger', quantity: 3, price: { unitPrice: { total: 12.99 } } },
        { productId: 'burger', quantity: '0.35', unitPrice: '12.99' },
        { productId: 'burger', quantity: 2 },
      ],
      {},
    );
    // 12.99 × 3 = 38.97: ICMS 7.0146 → 7.01; base 31.96; PIS 0.20774 → 0.21; COFINS 0.9588 → 0.96
    expect(taxOf(result, 0)).toMatchObject({ ICMS_base: 38.97, ICMS_value: 7.01, PIS_value: 0.21, COFINS_value: 0.96 });
    expect(taxOf(result, 0).amountFrom).toBe('unitPrice×quantity');
    // 12.99 × 0.35 = 4.5465 → 4.55: ICMS 0.819 → 0.82; base 3.73; PIS 0.024245 → 0.02; COFINS 0.1119 → 0.11
    expect(taxOf(result, 1)).toMatchObject({ ICMS_base: 4.55, ICMS_value: 0.82, PIS_value: 0.02, COFINS_value: 0.11 });
    // neither a total nor a unit price
    expect(lines(result)[2]!.tax).toBeNull();
    expect(result.warnings.map((w) => [w.code, w.path])).toEqual([['MISSING_AMOUNT', 'order.products[2]']]);
    expect(result.summary.totals.base).toBe(43.52); // 38.97 + 4.55
  });

  it('a line with a total keeps it, without amountFrom; a negative product is NEGATIVE_AMOUNT', () => {
    const result = run(
      [
        { productId: 'flat', quantity: 2, price: { unitPrice: { total: 9 }, totalPrice: { total: 17 } } },
        { productId: 'flat', quantity: -1, price: { unitPrice: 5 } },
      ],
      {},
    );
    expect(taxOf(result, 0).ICMS_base).toBe(17);
    expect(taxOf(result, 0)).not.toHaveProperty('amountFrom');
    expect(result.warnings.map((w) => w.code)).toEqual(['NEGATIVE_AMOUNT']);
  });

  it('per-unit lines take their shares like any other', () => {
    const result = run([{ productId: 'flat', quantity: 4, price: { unitPrice: { total: 2.5 } } }], { discounts: [merchant(1)] });
    // 2.50 × 4 = 10.00; net 9.00; ICMS 0.90
    expect(taxOf(result, 0)).toMatchObject({ amountFrom: 'unitPrice×quantity', discount: 1, netAmount: 9, ICMS_value: 0.9 });
  });
});
