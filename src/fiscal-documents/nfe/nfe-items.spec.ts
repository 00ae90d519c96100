import { DefaultTaxEngine } from '../../tax-engine/default-tax-engine.js';
import type { FiscalGroupSnapshot, TaxRule } from '../../tax-engine/tax-engine.js';
import { crtOf, nfeItemsOf, origOf } from './nfe-items.js';
import type { NfeOptions } from './nfe-layout.js';
import { moneyText, quantityOf, schemaText, unitValueText, validGtin } from './nfe-text.js';

const engine = new DefaultTaxEngine();
const NFCE: NfeOptions = { model: '65', freightAs: 'vFrete' };
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

function enriched(taxMatrix: Record<string, TaxRule>, products: unknown[], settings = {}) {
  const group: FiscalGroupSnapshot = { id: 'g', externalId: null, uf: 'SP', taxRegime: 'LUCRO_REAL', taxMatrix, settings };
  const categories = {
    byProductId: new Map([
      ['burger', '21069090'],
      ['cola', '22021000'],
      ['x'.repeat(61), '21069090'],
    ]),
    byExternalProductId: new Map<string, string>(),
  };
  return engine.enrich({ group, categories, payload: { orderId: 'O-1', order: { products } } }).payload;
}

describe('nfeItemsOf', () => {
  it('one det per taxed item in payload order, modifiers after their line; a free modifier without taxes is no item', () => {
    const payload = enriched({ '2106': rule('2106', { CFOP: '5102' }) }, [
      {
        productId: 'burger',
        price: { totalPrice: { total: 10 } },
        modifierGroups: [
          {
            selectedModifiers: [
              { productId: 'burger', price: { totalPrice: { total: 2 } } },
              { productId: 'free-sauce', price: { totalPrice: { total: 0 } } },
            ],
          },
        ],
      },
      { productId: 'burger', price: { totalPrice: { total: 5 } } },
    ]);
    const outcome = nfeItemsOf(payload, NFCE);
    expect(outcome.items?.det.map((det) => [det['@nItem'], det.prod.vProd])).toEqual([
      ['1', '10.00'],
      ['2', '2.00'],
      ['3', '5.00'],
    ]);
  });

  it('lists every cause, with the path of the item', () => {
    const payload = enriched({ '2106': rule('2106'), '2202': rule('2202', { CFOP: '5405', CST_PIS: '03' }) }, [
      { productId: 'burger', price: { totalPrice: { total: 10 } } },
      { productId: 'cola', price: { totalPrice: { total: 6 } } },
      { productId: 'unknown', price: { totalPrice: { total: 6 } } },
      { productId: 'x'.repeat(61), price: { totalPrice: { total: 1 } } },
    ]);
    expect(nfeItemsOf(payload, NFCE).problems?.map((problem) => [problem.field, problem.code])).toEqual([
      ['order.products[0]', 'NO_CFOP'],
      ['order.products[1]', 'PIS_COFINS_CST_NOT_SUPPORTED'],
      ['order.products[2]', 'NO_TAX'],
      ['order.products[3].productId', 'CPROD_TOO_LONG'],
      ['order.products[3]', 'NO_CFOP'],
    ]);
  });

  it("the group's default CFOP serves a rule without one; the enrichment it reads is not changed", () => {
    const payload = enriched({ '2106': rule('2106') }, [{ productId: 'burger', price: { totalPrice: { total: 10 } } }], {
      defaultCfop: '5102',
    });
    const before = JSON.stringify(payload);
    expect(nfeItemsOf(payload, NFCE).items?.det[0]!.prod.CFOP).toBe('5102');
    expect(JSON.stringify(payload)).toBe(before);
  });

  it('a valid GTIN is printed; an invalid one is SEM GTIN', () => {
    const payload = enriched({ '2106': rule('2106', { CFOP: '5102' }) }, [
      { productId: 'burger', gtin: '7891000315507', price: { totalPrice: { total: 10 } } },
      { productId: 'burger', ean: '7891000315508', price: { totalPrice: { total: 10 } } },
    ]);
    expect(nfeItemsOf(payload, NFCE).items?.det.map((det) => [det.prod.cEAN, det.prod.cEANTrib])).toEqual([
      ['7891000315507', '7891000315507'],
      ['SEM GTIN', 'SEM GTIN'],
    ]);
  });
});

describe('the printed text', () => {
  it('CRT by regime', () => {
    expect([crtOf('SIMPLES_NACIONAL'), crtOf('mei'), crtOf('4'), crtOf('1'), crtOf('LUCRO_REAL'), crtOf(null)]).toEqual([
      '1',
      '4',
      '4',
      '1',
      '3',
      '3',
    ]);
  });

  it('orig: the rule’s, else the first digit of a 3-digit CST in the normal regime, else 0', () => {
    const base = { CST_ICMS: '200' } as never;
    expect(origOf({ ...(base as object), orig: '5' } as never, false)).toBe('5');
    expect(origOf(base, false)).toBe('2');
    expect(origOf(base, true)).toBe('0');
  });

  it('money, quantities and unit values in the schema types', () => {
    expect([moneyText(0), moneyText(5), moneyText(1234567)]).toEqual(['0.00', '0.05', '12345.67']);
    expect([
      quantityOf(2).toFixed(4),
      quantityOf('1.23456').toFixed(4),
      quantityOf(undefined).toFixed(4),
      quantityOf(0).toFixed(4),
    ]).toEqual(['2.0000', '1.2346', '1.0000', '1.0000']);
    // 10.00 ÷ 3 = 3.3333333333 (10 decimals); 51.80 ÷ 2 = 25.90
    expect(unitValueText(1000, quantityOf(3))).toBe('3.3333333333');
    expect(unitValueText(5180, quantityOf(2))).toBe('25.90');
  });

  it('names: whitespace collapsed, characters outside ! to ÿ dropped, cut', () => {
    expect(schemaText(' a\u0000b  c 🍔 日本 é ', 120)).toBe('ab c é');
    expect(schemaText('abc def', 4)).toBe('abc');
    expect(schemaText(undefined, 10)).toBe('');
  });

  it('GTIN check digits', () => {
    expect(validGtin('7891000315507')).toBe('7891000315507');
    expect(validGtin('96385074')).toBe('96385074');
    expect(validGtin('7891000315508')).toBeUndefined();
    expect(validGtin('123')).toBeUndefined();
  });
});
