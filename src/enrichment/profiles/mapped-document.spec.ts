import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import { fitText, SourcePaths } from './mapped-document.js';

describe('SourcePaths: a path of the mapped order in the words of the document sent', () => {
  const paths = new SourcePaths();
  paths.record('orderId', 'id');
  paths.record('store', 'merchant');
  paths.record('order.products', 'items');
  paths.record('order.products[1]', 'items[1]', { 'price.totalPrice.total': 'items[1].totalPrice' });
  paths.record('order.discounts[0]', 'benefits[2].sponsorshipValues[1]', {
    amount: 'benefits[2].sponsorshipValues[1].value',
    target: 'benefits[2].target',
  });

  it('takes the longest recorded part ending at a segment, renames its fields and keeps the rest', () => {
    expect(paths.sourceOf('orderId')).toBe('id');
    expect(paths.sourceOf('store.id')).toBe('merchant.id');
    expect(paths.sourceOf('order.products')).toBe('items');
    expect(paths.sourceOf('order.products[1].price.totalPrice.total')).toBe('items[1].totalPrice');
    expect(paths.sourceOf('order.products[1].modifierGroups')).toBe('items[1].modifierGroups');
    // No part for line 0: its list's part, the rest kept.
    expect(paths.sourceOf('order.products[0].quantity')).toBe('items[0].quantity');
    expect(paths.sourceOf('order.discounts[0].amount')).toBe('benefits[2].sponsorshipValues[1].value');
    expect(paths.sourceOf('order.discounts[0].target')).toBe('benefits[2].target');
    expect(paths.sourceOf('order.discounts[0].description')).toBe('benefits[2].sponsorshipValues[1].description');
    // Not a segment boundary: `storeName` is not below `store`.
    expect(paths.sourceOf('storeName')).toBe('storeName');
  });

  it("rewrites an error's fields, and the validation sentence built from them", () => {
    const translated = paths.translated(ApiError.validation([{ field: 'order.discounts[0].amount', problem: 'must be a number' }]));
    expect(translated.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(translated.details).toEqual([{ field: 'benefits[2].sponsorshipValues[1].value', problem: 'must be a number' }]);
    expect(translated.message).toBe('Invalid request: benefits[2].sponsorshipValues[1].value: must be a number');
    const domain = new ApiError(ErrorCode.FORBIDDEN, 'kept as it is', { details: [{ field: 'store.id', problem: 'no' }] });
    expect(paths.translated(domain)).toMatchObject({
      message: 'kept as it is',
      status: 403,
      details: [{ field: 'merchant.id', problem: 'no' }],
    });
  });
});

describe('fitText', () => {
  it('keeps text that fits and cuts the rest to the length, ending with an ellipsis', () => {
    expect(fitText('short', 5)).toBe('short');
    expect(fitText('C'.repeat(600), 500)).toBe(`${'C'.repeat(499)}…`);
  });

  it('never splits a character of two UTF-16 units', () => {
    const cut = fitText(`${'a'.repeat(498)}😀😀`, 500);
    expect(cut).toBe(`${'a'.repeat(498)}…`);
    expect(cut.length).toBeLessThanOrEqual(500);
  });
});
