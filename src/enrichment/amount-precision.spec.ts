import { amountPrecisionProblems } from './amount-precision.js';

/** The order text with one line of amount `amount` (written verbatim), as received and as JSON.parse reads it. */
function check(amount: string, wrapped = false): string[] {
  const order = `{"orderId":"o","order":{"products":[{"productId":"p","price":{"totalPrice":{"total":${amount}}}}]}}`;
  const raw = wrapped ? `{"payload":${order}}` : order;
  return amountPrecisionProblems(JSON.parse(raw) as Record<string, unknown>, wrapped ? ['payload'] : [], raw).map(
    (problem) => problem.field,
  );
}

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
  ])('%s: %j', (amount, fields) => {
    expect(check(amount)).toEqual(fields);
  });

  it('names the path under payload for a wrapped order', () => {
    expect(check('90071992547409.91', true)).toEqual([`payload.${AT}`]);
  });
});
