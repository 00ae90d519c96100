import { parseKeepingIntegers } from '../common/exact-integers.js';
import { TEXT_DIGITS_PROBLEM } from '../tax-engine/money.js';
import { amountPrecisionProblems } from './amount-precision.js';

/** The body parser's reading of `raw`: the parsed order, with the written text of each number not read as written. */
const parsed = (raw: string) => parseKeepingIntegers(raw) as Record<string, unknown>;

/** The problems' paths for the order text `raw` (written verbatim), read as the body parser reads it; the text itself is not passed. */
function fieldsOf(raw: string, wrapped = false): string[] {
  return amountPrecisionProblems(parsed(raw), wrapped ? ['payload'] : []).map((problem) => problem.field);
}

/** The order text with one line of amount `amount` (written verbatim). */
function check(amount: string, wrapped = false): string[] {
  const order = `{"orderId":"o","order":{"products":[{"productId":"p","price":{"totalPrice":{"total":${amount}}}}]}}`;
  return fieldsOf(wrapped ? `{"payload":${order}}` : order, wrapped);
}

/** An order with one line priced per unit: `item` is the line's JSON text after its productId. */
const perUnit = (item: string, wrapped = false) => {
  const order = `{"orderId":"o","order":{"products":[{"productId":"p",${item}}]}}`;
  return fieldsOf(wrapped ? `{"payload":${order}}` : order, wrapped);
};

/** An order of one exact line whose `order` also carries `adjustments` (JSON text of its fields). */
const withAdjustments = (adjustments: string) =>
  fieldsOf(`{"orderId":"o","order":{"products":[{"productId":"p","price":{"totalPrice":{"total":10}}}],${adjustments}}}`);

const AT = 'order.products[0].price.totalPrice.total';

describe('amountPrecisionProblems', () => {
  it.each([
    ['25.9', []],
    ['"25.90"', []],
    ['10.005', []], // on a half cent, and so is its text: 1001 cents either way
    ['9999999999999.99', []],
    ['"90071992547409.91"', []], // text keeps every digit
    ['25.900000000000000001', []], // same cents as the number JSON.parse makes
    ['10.00499999999999999999', [AT]], // read as 10.005: 1001 cents instead of 1000
    ['90071992547409.91', [AT]], // read as 90071992547409.9
    ['90071992547409.92', [AT]], // past 2^53 - 1 cents
    ['"100000000000000000"', [AT]],
    ['1e400', [AT]],
    ['"abc"', []], // not an amount: the engine warns
    [`"0.${'0'.repeat(29)}1"`, []], // 30 decimals: the most numeric text may have
    [`"0.${'0'.repeat(30)}1"`, [AT]], // 31
    [`"${'1'.repeat(21)}"`, [AT]], // 21 digits before the point
  ])('%s: %j', (amount, fields) => {
    expect(check(amount)).toEqual(fields);
  });

  it('names the path under payload for a wrapped order', () => {
    expect(check('90071992547409.91', true)).toEqual([`payload.${AT}`]);
  });

  describe('order-level amounts, as line amounts', () => {
    it.each([
      ['"discounts":[{"amount":5,"sponsor":"MERCHANT","target":"ITEMS"}]', []],
      ['"discounts":[{"amount":0.0049999999999999999,"sponsor":"MERCHANT","target":"ITEMS"}]', ['order.discounts[0].amount']], // read as 0.005
      [
        // the second discount and the second charge: their indexes are in the path
        '"discounts":[{"amount":1,"sponsor":"MERCHANT","target":"ITEMS"},{"amount":90071992547409.91,"sponsor":"PLATFORM","target":"ITEMS"}],' +
          '"otherCharges":[{"amount":2,"chargedBy":"MERCHANT"},{"amount":"90071992547409.92","chargedBy":"MERCHANT"}]',
        ['order.discounts[1].amount', 'order.otherCharges[1].amount'],
      ],
      ['"deliveryFee":{"amount":10.00499999999999999999,"deliveredBy":"MERCHANT"}', ['order.deliveryFee.amount']],
      ['"deliveryFee":{"amount":"10.00499999999999999999","deliveredBy":"MERCHANT"}', []], // text: 1000 cents, as written
      ['"serviceCharge":{"amount":90071992547409.91}', ['order.serviceCharge.amount']],
      ['"serviceCharge":{"amount":1.015}', []], // a half cent written as such
      [`"serviceCharge":{"amount":"1.${'0'.repeat(30)}1"}`, ['order.serviceCharge.amount']], // text of 31 decimals
    ])('%s: %j', (adjustments, fields) => {
      expect(withAdjustments(adjustments)).toEqual(fields);
    });
  });

  describe('items priced per unit', () => {
    it.each([
      ['"quantity":2,"price":{"unitPrice":{"total":12.5}}', []],
      ['"quantity":2.0,"price":{"unitPrice":{"total":12.50}}', []], // the same decimals, written otherwise
      ['"quantity":1E1,"price":{"unitPrice":"12.345"}', []], // 1E1 is 10; text keeps every digit
      ['"quantity":0.350,"unitPrice":39.9', []], // sold by weight, unit price at the item's root
      // 2.0000000000000000001 is read as 2: 12.50 × 2 = 25.00 taxed instead of 25.0000000000000000012 (rounded, the
      // same cents here: the text itself must be the decimal multiplied)
      ['"quantity":2.0000000000000000001,"price":{"unitPrice":{"total":12.5}}', ['order.products[0].quantity']],
      ['"quantity":3,"price":{"unitPrice":{"total":0.33333333333333333}}', ['order.products[0].price.unitPrice.total']],
      ['"quantity":3,"price":{"unitPrice":0.33333333333333333}', ['order.products[0].price.unitPrice']],
      ['"quantity":3,"unitPrice":0.33333333333333333', ['order.products[0].unitPrice']],
      // price.unitPrice is read first: the root's is not multiplied
      ['"quantity":3,"price":{"unitPrice":1},"unitPrice":0.33333333333333333', []],
      ['"quantity":1e400,"price":{"unitPrice":{"total":1}}', ['order.products[0].quantity']],
      ['"quantity":1,"price":{"unitPrice":{"total":1e400}},"unitPrice":2', ['order.products[0].price.unitPrice.total']],
      ['"quantity":2.0000000000000000001', []], // no unit price: nothing is multiplied (the engine warns MISSING_AMOUNT)
      // a total is the amount: the unit price and quantity are not read
      ['"quantity":2.0000000000000000001,"price":{"totalPrice":{"total":25},"unitPrice":{"total":12.5}}', []],
      // text is bounded: 20 digits before the point, 30 after it
      [`"quantity":"0.${'0'.repeat(29)}1","price":{"unitPrice":{"total":"${'9'.repeat(20)}"}}`, []],
      [`"quantity":"0.${'3'.repeat(31)}","unitPrice":"1.5"`, ['order.products[0].quantity']],
      [`"quantity":1,"price":{"unitPrice":"${'1'.repeat(21)}"}`, ['order.products[0].price.unitPrice']],
      // a number's text is at most 17 significant digits: 1e-35 is multiplied as it is
      ['"quantity":1e-35,"price":{"unitPrice":{"total":1}}', []],
    ])('%s: %j', (item, fields) => {
      expect(perUnit(item)).toEqual(fields);
    });

    it('refuses numeric text of a few hundred thousand digits, naming both values, before anything multiplies them', () => {
      const digits = 300_000;
      const raw = `{"orderId":"o","order":{"products":[{"productId":"p","quantity":"0.${'3'.repeat(digits)}","price":{"unitPrice":{"total":"1.${'7'.repeat(digits)}"}}}]}}`;
      expect(amountPrecisionProblems(parsed(raw), [])).toEqual([
        { field: 'order.products[0].price.unitPrice.total', problem: TEXT_DIGITS_PROBLEM },
        { field: 'order.products[0].quantity', problem: TEXT_DIGITS_PROBLEM },
      ]);
    });

    it('checks a selected modifier, and names the path under payload', () => {
      const modifier = '{"productId":"m","quantity":0.1000000000000000001,"price":{"unitPrice":{"total":3}}}';
      expect(perUnit(`"price":{"totalPrice":{"total":10}},"modifierGroups":[{"selectedModifiers":[${modifier}]}]`, true)).toEqual([
        'payload.order.products[0].modifierGroups[0].selectedModifiers[0].quantity',
      ]);
    });

    it('accepts what it has no written text of (an order mapped from another platform, built by the service)', () => {
      const raw = '{"orderId":"o","order":{"products":[{"productId":"p","quantity":2.0000000000000000001,"unitPrice":1}]}}';
      expect(amountPrecisionProblems(JSON.parse(raw) as Record<string, unknown>, [])).toEqual([]);
    });
  });
});
