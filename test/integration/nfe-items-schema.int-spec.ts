import { DefaultTaxEngine } from '../../src/tax-engine/default-tax-engine.js';
import type { FiscalGroupSnapshot, TaxRule } from '../../src/tax-engine/tax-engine.js';
import { nfeItemsOf } from '../../src/fiscal-documents/nfe/nfe-items.js';
import { nfeItemsXml } from '../../src/fiscal-documents/nfe/nfe-xml.js';
import type { NfeItems, NfeOptions } from '../../src/fiscal-documents/nfe/nfe-layout.js';
import { schemaErrorsOf } from '../support/nfe-schema.js';

const engine = new DefaultTaxEngine();
const NFCE: NfeOptions = { model: '65', freightAs: 'vFrete' };

function rule(ncm: string, overrides: Partial<TaxRule> = {}): TaxRule {
  return {
    NCM: ncm,
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
    ...overrides,
  };
}

function group(taxMatrix: Record<string, TaxRule>, taxRegime: string | null = 'LUCRO_PRESUMIDO', settings = {}): FiscalGroupSnapshot {
  return { id: 'g-1', externalId: null, uf: 'SP', taxRegime, taxMatrix, settings };
}

function itemsOf(g: FiscalGroupSnapshot, products: Record<string, string>, order: Record<string, unknown>, options = NFCE): NfeItems {
  const categories = { byProductId: new Map(Object.entries(products)), byExternalProductId: new Map<string, string>() };
  const { payload } = engine.enrich({ group: g, categories, payload: { orderId: 'ORD-1', store: { id: 's-1' }, order } });
  const outcome = nfeItemsOf(payload, options);
  if (!outcome.items) throw new Error(JSON.stringify(outcome.problems));
  return outcome.items;
}

describe('the NF-e items validate against PL_010_V1.30/nfe_v4.00.xsd', () => {
  it('CST 00', async () => {
    const items = itemsOf(
      group({ '21069090': rule('21069090') }),
      { burger: '21069090' },
      {
        products: [{ productId: 'burger', name: 'Classic burger', quantity: 2, price: { totalPrice: { total: 51.8 } } }],
      },
    );
    const xml = nfeItemsXml(items);
    expect(await schemaErrorsOf(xml, '65', items.crt)).toEqual([]);
  });
});
