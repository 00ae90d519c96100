import { ApiError } from '../../common/errors/api-error.js';
import { cents, marketplaceDocument, netAmountCents, taxEveryProduct } from '../../../test/support/marketplace-documents.js';
import { REGISTERED_PROFILES } from './registered-profiles.js';

/**
 * Published orders of each marketplace (test/fixtures/marketplaces/README.md names each source), mapped by their
 * profile and taxed by the real engine with one rule for every product. For each, from the document's own figures:
 * the lines' net amounts = items − the store's discounts + the fee when the store delivers + the store's charges;
 * the platform's discounts in thirdPartyPayments; the platform's fees and a fee it delivers in outsideInvoice.
 */

function profile(name: string) {
  const found = REGISTERED_PROFILES.find((each) => each.name === name);
  if (!found) throw new Error(`no profile ${name}`);
  return found;
}

function taxed(name: string, file: string) {
  const mapped = profile(name).map(marketplaceDocument(file));
  return { mapped: mapped.order, ...taxEveryProduct(mapped.order) };
}

const outside = (summary: { outsideInvoice?: Array<{ kind: string; amount: number }> }, kind: string) =>
  (summary.outsideInvoice ?? []).filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + cents(entry.amount), 0);
const thirdParty = (summary: { thirdPartyPayments?: Array<{ amount: number }> }) =>
  (summary.thirdPartyPayments ?? []).reduce((sum, entry) => sum + cents(entry.amount), 0);
const codes = (summary: { warnings: Array<{ code: string }> }) => summary.warnings.map((warning) => warning.code);

describe('Rappi: published orders', () => {
  it("the developer portal's GET orders example (pesos; Rappi delivers; its shipping discount is Rappi's)", () => {
    const { mapped, summary, ...rest } = taxed('rappi', 'rappi/docs-get-orders-example.json');
    expect(mapped).toMatchObject({ orderId: '392625', store: { id: '123445' } });
    // items: 28900 × 3 + 13500 × 1 × 3 + 34900 × 2 + 0 × 1 × 2 + 3500 × 1 × 2 = 86700 + 40500 + 69800 + 0 + 7000 = 204000
    // = total_products: no SOURCE_TOTAL_MISMATCH. The store's discount: 100 (amount_by_partner) on the Seafood Salad.
    // Rappi delivers (delivery_method delivery): the fee of 50 is outside the invoice. No store charge.
    expect(netAmountCents({ summary, ...rest })).toBe((204000 - 100) * 100); // 204000 − 100 = 203900.00
    expect(codes(summary)).not.toContain('SOURCE_TOTAL_MISMATCH');
    expect(outside(summary, 'DELIVERY_FEE')).toBe(50 * 100); // the fee Rappi delivers
    // Rappi's 7600 off shipping lowers a fee that is not on the invoice: outside it too, with the fee.
    expect(outside(summary, 'DISCOUNT')).toBe(7600 * 100);
    expect(outside(summary, 'OTHER_CHARGE')).toBe(100 * 100); // service_fee 100, Rappi's
    // The store's discount sits on the salad line (index 1) and its two subitems, never on the first line.
    expect(rest.items[0]!.tax?.discount ?? 0).toBe(0);
  });

  it("an open-source integration's NEW_ORDER fixture (reais; its totals disagree with its items)", () => {
    const { summary, ...rest } = taxed('rappi', 'rappi/orders-integrations-hub-create.json');
    // items: 50.00 × 2 + 5.00 × 1 × 2 = 110.00; total_products says 50.00: a warning with both figures.
    const mismatch = summary.warnings.find((warning) => warning.code === 'SOURCE_TOTAL_MISMATCH');
    expect(mismatch?.message).toContain('50.00');
    expect(mismatch?.message).toContain('110.00');
    // 110.00 − 2.50 (amount_by_partner) + 0 (Rappi delivers) + 0 = 107.50
    expect(netAmountCents({ summary, ...rest })).toBe(10750);
    expect(thirdParty(summary)).toBe(250); // amount_by_rappi 2.50
    expect(outside(summary, 'DELIVERY_FEE')).toBe(1000); // shipping 10.00, delivery_method DELIVERY: Rappi's couriers
  });

  it("the same integration's cancellation event is not an order (422 NOT_AN_ORDER naming order_event)", () => {
    expect(() => profile('rappi').map(marketplaceDocument('rappi/orders-integrations-hub-cancel.json'))).toThrow(
      expect.objectContaining({ code: 'NOT_AN_ORDER', status: 422, details: [expect.objectContaining({ field: 'order_event' })] }),
    );
  });
});

describe('99Food: published orders', () => {
  it("DiDi Food's orderNew webhook example (cents; the store delivers; promotions split store / platform)", () => {
    const { mapped, summary, ...rest } = taxed('99food', '99food/docs-order-webhook-example.json');
    // The 19-digit id, exactly as written (a JS number would end in ...3500).
    expect(mapped).toMatchObject({ orderId: '1152921547153933576', store: { id: '7093' } });
    // items: 7500 × 1 + 7500 × 2 + 7500 × 1 = 30000 cents (sub-items at 0); order_price says 2000: a warning.
    expect(codes(summary)).toContain('SOURCE_TOTAL_MISMATCH');
    // store's promotions (shop_subside_price): 3750 + 1500 + 900 = 6150; delivery_type 2: the fee 500 is the store's.
    // 30000 − 6150 + 500 = 24350 cents
    expect(netAmountCents({ summary, ...rest })).toBe(24350);
    // 99Food's: (7500 − 3750) + (1500 − 1500) + (1000 − 900) = 3750 + 0 + 100 = 3850 cents
    expect(thirdParty(summary)).toBe(3850);
    expect(outside(summary, 'DELIVERY_FEE')).toBe(0);
  });

  it("an open-source integration's orderNew fixture (numbers as ids; 99Food delivers)", () => {
    const { mapped, summary, ...rest } = taxed('99food', '99food/orders-integrations-hub-order-new.json');
    expect(mapped).toMatchObject({ orderId: '987654321', store: { id: 'food99-shop' } });
    // 4000 × 1 + 800 × 1 × 1 = 4800 cents; no promotion, no store charge; delivery_type 1: 99Food's fee of 200 outside.
    expect(netAmountCents({ summary, ...rest })).toBe(4800);
    expect(outside(summary, 'DELIVERY_FEE')).toBe(200);
    expect(thirdParty(summary)).toBe(0);
    // The item's total_price (4000) and order_price (5000) leave the option out: both disagree with 4800.
    expect(codes(summary).filter((code) => code === 'SOURCE_TOTAL_MISMATCH')).toHaveLength(2);
  });
});

describe.each(['opendelivery', 'keeta'])('Open Delivery orders, through ?profile=%s', (name) => {
  const wrap = (document: unknown) => (name === 'keeta' ? { code: 0, message: 'success', data: document } : document);
  const taxedDocument = (file: string) => {
    const mapped = profile(name).map(wrap(marketplaceDocument(file)));
    return { mapped: mapped.order, ...taxEveryProduct(mapped.order) };
  };

  it("the standard's reference example (its item arithmetic does not add up)", () => {
    const { mapped, summary, ...rest } = taxedDocument('opendelivery/spec-order-example.json');
    expect(mapped).toMatchObject({
      orderId: '4818e72f-2304-466f-9fe7-af08f34ac4ed',
      store: { id: '7fb59cb8-5808-40c8-b967-1b3f20ee39cd' },
    });
    // 43.00 × 1 + 50.00 × 1 × 1 + 30.00 × 1 × 1 = 123.00; itemsPrice says 50.00: a warning, and the lines are taxed.
    expect(codes(summary)).toContain('SOURCE_TOTAL_MISMATCH');
    // The delivery fee (5.00) is received by the MARKETPLACE: outside; both shares of its 20.00 discount go with it.
    expect(netAmountCents({ summary, ...rest })).toBe(12300); // 123.00 − 0 + 0 + 0
    expect(outside(summary, 'DELIVERY_FEE')).toBe(500);
    expect(outside(summary, 'DISCOUNT')).toBe(2000); // 10.00 MARKETPLACE + 10.00 MERCHANT, on a fee not invoiced
  });

  it.each([
    // 28.90 × 2 + 4.50 × 2 = 57.80 + 9.00 = 66.80 = itemsPrice
    ['opendelivery/schema-validator2-complete-order-v1.2.0.json', 6680],
    // 32.90 × 1 = 32.90 = itemsPrice
    ['opendelivery/schema-validator2-valid-order-v1.6.0-rc.json', 3290],
  ])("a schema validator's fixture %s", (file, expectedNet) => {
    const { summary, ...rest } = taxedDocument(file);
    expect(netAmountCents({ summary, ...rest })).toBe(expectedNet);
    expect(summary.warnings).toEqual([]);
    expect(summary.outsideInvoice ?? []).toEqual([]);
  });
});

describe('each profile answers its own published example', () => {
  it.each(REGISTERED_PROFILES.map((each) => [each.name, each] as const))(
    '%s: its OpenAPI example maps without a problem',
    (_name, each) => {
      let error: unknown;
      try {
        each.map(structuredClone(each.example));
      } catch (caught) {
        error = caught;
      }
      expect(error instanceof ApiError ? error.details : error).toBeUndefined();
    },
  );
});
