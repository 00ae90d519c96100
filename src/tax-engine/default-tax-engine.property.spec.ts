import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import type { TaxMatrix, TaxRule } from './tax-rule.js';
import { DefaultTaxEngine } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax } from './tax-engine.js';

const engine = new DefaultTaxEngine();
const NOW = new Date('2026-11-21T12:00:00.000Z');

const PRODUCT_IDS = ['p0', 'p1', 'p2', 'p3', 'p4', 'unknown'];
const NCMS = ['21069090', '22021000', '22030000', '04069000', '19059090'];
const ZERO_PIS_COFINS = ['04', '05', '06', '07', '08', '09'];

const rate = fc.integer({ min: 0, max: 1_000_000 }).map((units) => units / 10_000);
const cstIcms = fc.constantFrom(
  '00',
  '10',
  '20',
  '30',
  '40',
  '41',
  '50',
  '51',
  '60',
  '70',
  '90',
  '000',
  '020',
  '060',
  '170',
  '101',
  '102',
  '500',
  '900',
);
const cstPisCofins = fc.constantFrom('01', '02', '04', '05', '06', '07', '08', '09', '49', '99');

/** The codes that may carry a reduced ICMS base (the matrix validation refuses it with any other). */
const REDUCIBLE = /^([0-8]?(20|70)|900)$/;
const reduction = fc.option(rate, { nil: undefined });
const fcpRate = fc.option(
  fc.integer({ min: 0, max: 40_000 }).map((units) => units / 10_000),
  { nil: undefined },
);

const ruleFor = (ncm: string) =>
  fc
    .record({
      CST_ICMS: cstIcms,
      ICMS_rate: rate,
      CST_PIS: cstPisCofins,
      PIS_rate: rate,
      CST_COFINS: cstPisCofins,
      COFINS_rate: rate,
      ICMS_base_reduction: reduction,
      FCP_rate: fcpRate,
    })
    .map(({ ICMS_base_reduction, FCP_rate, ...fields }): TaxRule => ({
      NCM: ncm,
      CEST: '',
      ...fields,
      ...(ICMS_base_reduction !== undefined && REDUCIBLE.test(fields.CST_ICMS) ? { ICMS_base_reduction } : {}),
      ...(FCP_rate !== undefined ? { FCP_rate } : {}),
    }));

// Rules keyed by full code for some NCMs and by a prefix for others.
const matrixArb = fc
  .tuple(...NCMS.map((ncm, index) => ruleFor(index % 2 === 0 ? ncm : ncm.slice(0, 4))))
  .map((rules) => Object.fromEntries(rules.map((rule) => [rule.NCM, rule])) as TaxMatrix);

const amount = fc.oneof(
  fc.integer({ min: 0, max: 10_000_000 }).map((cents) => cents / 100),
  fc.integer({ min: 0, max: 10_000_000 }).map((cents) => (cents / 100).toFixed(2)),
);

const item = fc.record({ productId: fc.constantFrom(...PRODUCT_IDS), total: amount });
const lineArb = fc.record({ main: item, modifiers: fc.array(item, { maxLength: 3 }) }).map(({ main, modifiers }) => ({
  productId: main.productId,
  price: { totalPrice: { total: main.total } },
  modifierGroups: [
    {
      name: 'extras',
      selectedModifiers: modifiers.map((modifier) => ({ productId: modifier.productId, price: { totalPrice: { total: modifier.total } } })),
    },
  ],
}));

const scenario = fc.record({
  matrix: matrixArb,
  regime: fc.constantFrom('LUCRO_PRESUMIDO', 'LUCRO_REAL', 'SIMPLES_NACIONAL', 'MEI'),
  includeIcms: fc.boolean(),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 15 }),
});

const CATEGORIES: CategoryIndex = {
  byProductId: new Map(PRODUCT_IDS.slice(0, 5).map((id, index) => [id, NCMS[index]!])),
  byExternalProductId: new Map(),
};

function enrich(s: { matrix: TaxMatrix; regime: string; includeIcms: boolean; lines: unknown[] }) {
  const group: FiscalGroupSnapshot = {
    id: 'g',
    externalId: null,
    uf: 'SP',
    taxRegime: s.regime,
    taxMatrix: s.matrix,
    settings: { includeIcmsInPisCofinsBase: s.includeIcms },
  };
  const payload = { orderId: 'o', store: { id: 's' }, order: { products: s.lines } };
  return { payload, result: engine.enrich({ group, categories: CATEGORIES, payload, now: NOW }) };
}

/** Every taxed item of an enriched payload, main lines and modifiers. */
function taxesOf(payload: Record<string, unknown>): LineTax[] {
  return taxedItemsOf(payload).map((item) => item.tax);
}

/** Every taxed item with its amount (`price.totalPrice.total`, a number or numeric text). */
function taxedItemsOf(payload: Record<string, unknown>): Array<{ tax: LineTax; amount: Decimal }> {
  const items: Array<{ tax: LineTax; amount: Decimal }> = [];
  const add = (item: any) => {
    if (item.tax) items.push({ tax: item.tax, amount: new Decimal(item.price.totalPrice.total) });
  };
  for (const line of (payload.order as any).products) {
    add(line);
    for (const group of line.modifierGroups ?? []) for (const modifier of group.selectedModifiers ?? []) add(modifier);
  }
  return items;
}

const cents = (value: number) => new Decimal(value).times(100);
const roundedPercent = (base: number, percent: number) =>
  new Decimal(base).times(percent).div(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

describe('DefaultTaxEngine properties', () => {
  it('totals are the exact sums of the line values', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { result } = enrich(s);
        const items = taxedItemsOf(result.payload);
        const taxes = items.map((item) => item.tax);
        const sum = (pick: (tax: LineTax) => number | undefined) =>
          taxes
            .reduce((total, tax) => total.plus(cents(pick(tax) ?? 0)), new Decimal(0))
            .div(100)
            .toNumber();
        expect(result.summary.totals).toEqual({
          base: items.reduce((total, item) => total.plus(item.amount), new Decimal(0)).toNumber(),
          ICMS_value: sum((tax) => tax.ICMS_value),
          PIS_value: sum((tax) => tax.PIS_value),
          COFINS_value: sum((tax) => tax.COFINS_value),
          // FCP: the sum of the rounded lines, present when a line's rule carries FCP_rate.
          ...(taxes.some((tax) => tax.FCP_rate !== undefined) ? { FCP_value: sum((tax) => tax.FCP_value) } : {}),
          total_tax: sum((tax) => tax.total_tax),
        });
      }),
      { numRuns: 300 },
    );
  });

  it('each value is round(base × rate / 100, 2) on the rounded reduced base, or 0 where not charged; total_tax is the sum of the values', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const simples = s.regime === 'SIMPLES_NACIONAL' || s.regime === 'MEI';
        for (const { tax, amount } of taxedItemsOf(enrich(s).result.payload)) {
          const icmsZero =
            simples && tax.CST_ICMS.length === 3 ? tax.CST_ICMS !== '900' : ['30', '40', '41', '50', '60'].includes(tax.CST_ICMS.slice(-2));
          // ICMS_base = round(amount × (100 − pRedBC) / 100, 2): the base the document prints.
          const reducedBase =
            tax.ICMS_base_reduction === undefined
              ? amount.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber()
              : roundedPercent(amount.toNumber(), new Decimal(100).minus(tax.ICMS_base_reduction).toNumber());
          expect(tax.ICMS_base).toBe(reducedBase);
          expect(tax.ICMS_value).toBe(icmsZero ? 0 : roundedPercent(tax.ICMS_base, tax.ICMS_rate));
          if (tax.FCP_rate === undefined) {
            expect([tax.FCP_base, tax.FCP_value]).toEqual([undefined, undefined]);
          } else {
            expect(tax.FCP_base).toBe(tax.ICMS_base);
            expect(tax.FCP_value).toBe(icmsZero ? 0 : roundedPercent(tax.ICMS_base, tax.FCP_rate));
          }
          // PIS/COFINS base: the amount minus the ICMS charged (FCP stays in it).
          const expectedBase = s.includeIcms ? amount.toNumber() : amount.minus(tax.ICMS_value).toNumber();
          expect(tax.PIS_base).toBe(expectedBase);
          expect(tax.COFINS_base).toBe(expectedBase);
          const pisZero = simples || ZERO_PIS_COFINS.includes(tax.CST_PIS);
          const cofinsZero = simples || ZERO_PIS_COFINS.includes(tax.CST_COFINS);
          expect(tax.PIS_value).toBe(pisZero ? 0 : roundedPercent(tax.PIS_base, tax.PIS_rate));
          expect(tax.COFINS_value).toBe(cofinsZero ? 0 : roundedPercent(tax.COFINS_base, tax.COFINS_rate));
          if (simples) expect([tax.zeroReasons.PIS, tax.zeroReasons.COFINS]).toEqual(['SIMPLES_NACIONAL', 'SIMPLES_NACIONAL']);
          expect(tax.total_tax).toBe(
            new Decimal(tax.ICMS_value)
              .plus(tax.PIS_value)
              .plus(tax.COFINS_value)
              .plus(tax.FCP_value ?? 0)
              .toNumber(),
          );
          for (const money of [tax.ICMS_base, tax.ICMS_value, tax.PIS_value, tax.COFINS_value, tax.FCP_value ?? 0, tax.total_tax]) {
            expect(/^\d+(\.\d{1,2})?$/.test(JSON.stringify(money))).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('zero CSTs always give 0 whatever the rate', () => {
    fc.assert(
      fc.property(scenario, fc.constantFrom(...ZERO_PIS_COFINS), fc.constantFrom('30', '40', '41', '50', '60'), (s, zeroPis, zeroIcms) => {
        const matrix = Object.fromEntries(
          Object.entries(s.matrix).map(([key, value]) => [key, { ...value, CST_ICMS: zeroIcms, CST_PIS: zeroPis, CST_COFINS: zeroPis }]),
        );
        for (const tax of taxesOf(enrich({ ...s, regime: 'LUCRO_REAL', matrix }).result.payload)) {
          expect([tax.ICMS_value, tax.PIS_value, tax.COFINS_value, tax.total_tax]).toEqual([0, 0, 0, 0]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('does not depend on the order of the lines', () => {
    fc.assert(
      fc.property(
        scenario.chain((s) =>
          fc
            .shuffledSubarray(
              s.lines.map((_, index) => index),
              { minLength: s.lines.length, maxLength: s.lines.length },
            )
            .map((order) => ({ s, order })),
        ),
        ({ s, order }) => {
          const original = enrich(s).result;
          const shuffled = enrich({ ...s, lines: order.map((index) => s.lines[index]) }).result;
          expect(shuffled.summary.totals).toEqual(original.summary.totals);
          const originalLines = (original.payload.order as any).products;
          const shuffledLines = (shuffled.payload.order as any).products;
          order.forEach((from, to) => expect(shuffledLines[to]).toEqual(originalLines[from]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never mutates the payload', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const lines = structuredClone(s.lines);
        const { payload } = enrich(s);
        expect(payload.order.products).toEqual(lines);
        expect(JSON.stringify(payload)).not.toContain('"tax"');
      }),
      { numRuns: 200 },
    );
  });
});
