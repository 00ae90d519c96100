import fc from 'fast-check';
import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax, TaxEngineResult } from './tax-engine.js';
import type { FiscalGroupSettings, TaxMatrix } from './tax-rule.js';

const engine = new DefaultTaxEngine();
const NOW = new Date('2026-11-21T12:00:00.000Z');

const base = { CEST: '', CST_PIS: '01', PIS_rate: 1.65, CST_COFINS: '01', COFINS_rate: 7.6 };
const MATRIX: TaxMatrix = {
  '21069090': { NCM: '21069090', CST_ICMS: '00', ICMS_rate: 18, FCP_rate: 2, ...base },
  '19059090': { NCM: '19059090', CST_ICMS: '20', ICMS_rate: 12, ICMS_base_reduction: 33.3333, ...base },
  '22021000': { NCM: '22021000', CST_ICMS: '60', ICMS_rate: 18, ...base, CBS_rate: 0.9, IBS_UF_rate: 0.1 },
};
const CATEGORIES: CategoryIndex = {
  byProductId: new Map([
    ['p0', '21069090'],
    ['p1', '19059090'],
    ['p2', '22021000'],
  ]),
  byExternalProductId: new Map(),
};

const cents = fc.integer({ min: 0, max: 5_000_000 });
const item = fc.record({ productId: fc.constantFrom('p0', 'p1', 'p2'), amount: cents });
const linesArb = fc.array(fc.record({ main: item, modifiers: fc.array(item, { maxLength: 3 }) }), { minLength: 1, maxLength: 12 });
const money = (value: number) => value / 100;
const toPayloadLine = ({
  main,
  modifiers,
}: {
  main: { productId: string; amount: number };
  modifiers: Array<{ productId: string; amount: number }>;
}) => ({
  productId: main.productId,
  price: { totalPrice: { total: money(main.amount) } },
  modifierGroups: [
    { selectedModifiers: modifiers.map((m) => ({ productId: m.productId, price: { totalPrice: { total: money(m.amount) } } })) },
  ],
});
const settingsArb: fc.Arbitrary<FiscalGroupSettings> = fc.record({
  includeIcmsInPisCofinsBase: fc.boolean(),
  platformDiscountsReduceBase: fc.boolean(),
  deliveryFeeOnInvoice: fc.constantFrom('WHEN_MERCHANT_DELIVERS' as const, 'ALWAYS' as const, 'NEVER' as const),
  serviceChargeInIcmsBase: fc.boolean(),
});

/** Any discounts (including ones above what they apply to), fee, service charge and charges. */
const anyAdjustments = (lineCount: number) =>
  fc.record({
    discounts: fc.array(
      fc.record({
        amount: fc.integer({ min: 1, max: 3_000_000 }).map(money),
        sponsor: fc.constantFrom('MERCHANT', 'PLATFORM', 'THIRD_PARTY'),
        target: fc.constantFrom('ITEMS', 'ITEM', 'DELIVERY_FEE'),
        productIndex: fc.integer({ min: 0, max: lineCount - 1 }),
      }),
      { maxLength: 5 },
    ),
    deliveryFee: fc.option(fc.record({ amount: cents.map(money), deliveredBy: fc.constantFrom('MERCHANT', 'PLATFORM') }), {
      nil: undefined,
    }),
    serviceCharge: fc.option(fc.record({ amount: cents.map(money) }), { nil: undefined }),
    otherCharges: fc.array(
      fc.record({ amount: fc.integer({ min: 1, max: 100_000 }).map(money), chargedBy: fc.constantFrom('MERCHANT', 'PLATFORM') }),
      {
        maxLength: 3,
      },
    ),
  });

function enrich(lines: unknown[], adjustments: Record<string, unknown>, settings: FiscalGroupSettings): TaxEngineResult {
  const group: FiscalGroupSnapshot = { id: 'g', externalId: null, uf: 'SP', taxRegime: 'LUCRO_REAL', taxMatrix: MATRIX, settings };
  const payload = { orderId: 'o', store: { id: 's' }, order: { products: lines, ...adjustments } };
  return engine.enrich({ group, categories: CATEGORIES, payload, now: NOW });
}

/** Every taxed item with its amount in cents. */
function taxedItems(result: TaxEngineResult): Array<{ tax: LineTax; amount: number }> {
  const items: Array<{ tax: LineTax; amount: number }> = [];
  for (const line of (result.payload.order as any).products) {
    for (const entry of [line, ...line.modifierGroups[0].selectedModifiers]) {
      if (entry.tax) items.push({ tax: entry.tax, amount: Math.round(entry.price.totalPrice.total * 100) });
    }
  }
  return items;
}
const c = (value: number | undefined) => Math.round((value ?? 0) * 100);
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('order-level amounts: properties', () => {
  it('no net amount is negative; each is amount − discount + freight + otherCharges; totals are the sums of the lines', () => {
    const scenario = linesArb.chain((lines) => fc.tuple(fc.constant(lines), anyAdjustments(lines.length), settingsArb));
    fc.assert(
      fc.property(scenario, ([lines, adjustments, settings]) => {
        const result = enrich(lines.map(toPayloadLine), adjustments, settings);
        const items = taxedItems(result);
        const withShares = items.some(({ tax }) => tax.netAmount !== undefined);
        for (const { tax, amount } of items) {
          if (!withShares) continue;
          expect(c(tax.discount)).toBeLessThanOrEqual(amount);
          expect(c(tax.netAmount)).toBeGreaterThanOrEqual(0);
          expect(c(tax.netAmount)).toBe(amount - c(tax.discount) + c(tax.freight) + c(tax.otherCharges));
          expect(tax.ICMS_value).toBeGreaterThanOrEqual(0);
          expect(tax.PIS_base).toBeGreaterThanOrEqual(0);
        }
        const totals = result.summary.totals;
        const of = (pick: (tax: LineTax) => number | undefined) => sum(items.map(({ tax }) => c(pick(tax))));
        expect(c(totals.base)).toBe(sum(items.map(({ tax, amount }) => (withShares ? c(tax.netAmount) : amount))));
        expect(c(totals.ICMS_value)).toBe(of((tax) => tax.ICMS_value));
        expect(c(totals.PIS_value)).toBe(of((tax) => tax.PIS_value));
        expect(c(totals.COFINS_value)).toBe(of((tax) => tax.COFINS_value));
        expect(c(totals.total_tax)).toBe(of((tax) => tax.total_tax));
        if (withShares) {
          expect([c(totals.discount), c(totals.freight), c(totals.otherCharges)]).toEqual([
            of((tax) => tax.discount),
            of((tax) => tax.freight),
            of((tax) => tax.otherCharges),
          ]);
        } else {
          expect(totals).not.toHaveProperty('discount');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the shares add up exactly to each amount: what is split plus what stays outside is what was sent', () => {
    // Discounts of the whole order that fit in the items' total never meet a cap: every cent is placed.
    const scenario = linesArb.chain((lines) => {
      const total = sum(lines.flatMap(({ main, modifiers }) => [main.amount, ...modifiers.map((m) => m.amount)]));
      const discount = fc.record({
        amount: fc.integer({ min: 1, max: Math.max(1, Math.floor(total / 3)) }),
        sponsor: fc.constantFrom('MERCHANT', 'PLATFORM'),
      });
      return fc.tuple(fc.constant(lines), fc.array(discount, { maxLength: 3 }), anyAdjustments(lines.length), settingsArb);
    });
    fc.assert(
      fc.property(scenario, ([lines, discounts, adjustments, settings]) => {
        const order = {
          ...adjustments,
          discounts: discounts.map((d) => ({ amount: money(d.amount), sponsor: d.sponsor, target: 'ITEMS' })),
        };
        const result = enrich(lines.map(toPayloadLine), order, settings);
        const items = taxedItems(result);
        const itemsTotal = sum(items.map((i) => i.amount));
        const outside = (kind: string) => sum((result.summary.outsideInvoice ?? []).filter((o) => o.kind === kind).map((o) => c(o.amount)));
        const lineShares = (pick: (tax: LineTax) => number | undefined) => sum(items.map(({ tax }) => c(pick(tax))));
        if (itemsTotal > 0) expect(lineShares((tax) => tax.discount) + outside('DISCOUNT')).toBe(sum(discounts.map((d) => d.amount)));
        expect(lineShares((tax) => tax.freight) + outside('DELIVERY_FEE')).toBe(c(adjustments.deliveryFee?.amount));
        expect(lineShares((tax) => tax.otherCharges) + outside('SERVICE_CHARGE') + outside('OTHER_CHARGE')).toBe(
          c(adjustments.serviceCharge?.amount) + sum(adjustments.otherCharges.map((o) => c(o.amount))),
        );
      }),
      { numRuns: 300 },
    );
  });
});
