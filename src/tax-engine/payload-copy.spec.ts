import { DefaultTaxEngine } from './default-tax-engine.js';
import { copyOf, copyWith, isHole } from './payload-copy.js';
import type { LineTax } from './tax-engine.js';

describe('payload copies', () => {
  it('copyWith gives what a spread gives: the key in its place when the source has it, else last', () => {
    const line = { id: 'l1', tax: 'old', price: { total: 1 } };
    const copy = copyWith(line, 'tax', { ICMS_value: 1 });
    expect(JSON.stringify(copy)).toBe('{"id":"l1","tax":{"ICMS_value":1},"price":{"total":1}}');
    expect(JSON.stringify(copyWith({ id: 'l1' }, 'tax', null))).toBe('{"id":"l1","tax":null}');
    // Shallow: the source is left as it was, nested objects are shared.
    expect(line.tax).toBe('old');
    expect(copy.price).toBe(line.price);
  });

  it('keeps an own __proto__ key as data, as the spread does, instead of changing the prototype', () => {
    const source = JSON.parse('{"__proto__":{"polluted":true},"id":"l1"}') as Record<string, unknown>;
    const copy = copyWith(source, 'tax', 1);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"id":"l1","tax":1}');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    const plain = copyOf(source);
    expect(JSON.stringify(plain)).toBe('{"__proto__":{"polluted":true},"id":"l1"}');
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
  });

  it('tells holes from undefined elements', () => {
    // eslint-disable-next-line no-sparse-arrays
    const array = [undefined, , 1];
    expect([0, 1, 2].map((index) => isHole(array, index))).toEqual([false, true, false]);
  });
});

describe('the enriched payload of an order whose objects have an own __proto__ key', () => {
  it('keeps the key as data on the copies of the payload, the line and the modifier', () => {
    const payload = JSON.parse(
      '{"__proto__":{"a":1},"order":{"products":[{"__proto__":{"b":2},"productId":"p","price":{"totalPrice":{"total":10}},' +
        '"modifierGroups":[{"selectedModifiers":[{"__proto__":{"c":3},"productId":"p","price":{"totalPrice":{"total":1}}}]}]}]}}',
    ) as Record<string, unknown>;
    const rule = { NCM: '21069090', CEST: '', CST_ICMS: '00', ICMS_rate: 10, CST_PIS: '01', PIS_rate: 0, CST_COFINS: '01', COFINS_rate: 0 };
    const { payload: enriched } = new DefaultTaxEngine().enrich({
      group: { id: 'g', externalId: null, uf: 'SP', taxRegime: null, taxMatrix: { '21069090': rule }, settings: {} },
      categories: { byProductId: new Map([['p', '21069090']]), byExternalProductId: new Map() },
      payload,
      now: new Date('2026-01-01T00:00:00Z'),
    });
    const text = JSON.stringify(enriched);
    expect(text.startsWith('{"__proto__":{"a":1},"order":{"products":[{"__proto__":{"b":2},"productId":"p"')).toBe(true);
    expect(text).toContain('"selectedModifiers":[{"__proto__":{"c":3},"productId":"p"');
    // ICMS 10 % of 10.00 = 1.00 on the line, of 1.00 = 0.10 on the modifier.
    const line = (
      enriched.order as { products: Array<{ tax: LineTax; modifierGroups: Array<{ selectedModifiers: Array<{ tax: LineTax }> }> }> }
    ).products[0]!;
    expect(line.tax.ICMS_value).toBe(1);
    expect(line.modifierGroups[0]!.selectedModifiers[0]!.tax.ICMS_value).toBe(0.1);
    expect(Object.getPrototypeOf(line)).toBe(Object.prototype);
  });
});
