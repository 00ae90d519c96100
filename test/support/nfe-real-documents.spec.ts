import { readRealDocument, serviceSetupOf, serviceSplit } from './nfe-real-documents.js';

/** The reader of the real documents and the service configuration it derives from them (the e2e test's inputs). */
describe('real NF-e documents read into a service configuration', () => {
  const ids = { storeId: 'store-1', orderId: 'order-1', productPrefix: 'd0-' };

  it('reads the items, the regime and the protocol of an NFC-e in Simples Nacional', () => {
    const document = readRealDocument('41200323285089000185650010000013051817822496-nfce.xml');
    expect(document).toMatchObject({ model: '65', crt: '1', uf: 'PR', status: '100' });
    expect(document.items).toHaveLength(4);
    expect(document.items[1]).toMatchObject({
      nItem: 2,
      prod: { NCM: '21050010', CFOP: '5405', qCom: '1.0000', vProd: '12.00' },
      icms: { name: 'ICMSSN500', fields: { orig: '0', CSOSN: '500' } },
      pis: { name: 'PISOutr', fields: { CST: '49', vBC: '0.00', pPIS: '0.0000', vPIS: '0.00' } },
    });
    const setup = serviceSetupOf(document, ids);
    expect(setup.group).toMatchObject({ uf: 'PR', taxRegime: '1', settings: { includeIcmsInPisCofinsBase: false } });
    // Two NCMs (ice cream, mineral water), each a rule of CSOSN 500 with the items' CFOP and zero PIS/COFINS rates.
    expect(Object.keys(setup.group.taxMatrix).sort()).toEqual(['21050010', '22011000']);
    expect(setup.group.taxMatrix['22011000']).toMatchObject({ CST_ICMS: '500', CST_PIS: '49', PIS_rate: 0, CFOP: '5405' });
    expect(setup.shares).toEqual([]);
  });

  it('configures a normal-regime NF-e: origin and CST, reduced base, ICMS kept in the PIS/COFINS base', () => {
    const document = readRealDocument('35180834128745000152550010000476711079516696-nfe.xml');
    const setup = serviceSetupOf(document, ids);
    expect(setup.group.taxRegime).toBe('3');
    expect(setup.group.taxMatrix['15131900']).toMatchObject({ CST_ICMS: '020', ICMS_rate: 18, ICMS_base_reduction: 61.11, CST_PIS: '06' });
    // The document's PIS base 12.21 is vProd itself, not 12.21 − 2.20 of ICMS.
    expect(setup.group.settings).toEqual({ includeIcmsInPisCofinsBase: true });
    expect(setup.order).toMatchObject({
      order: { products: [{ productId: 'd0-1235', quantity: 1, price: { totalPrice: { total: '12.21' } } }, { quantity: 1 }] },
    });
  });

  it("finds the document's freight split as the service splits it, and sends the freight at order level", () => {
    const document = readRealDocument('35180834128745000152550010000474281920007498-nfe.xml');
    const setup = serviceSetupOf(document, ids);
    expect(setup.shares).toEqual([{ field: 'vFrete', total: '52.64', splitAsTheService: true }]);
    expect(setup.order).toMatchObject({ order: { deliveryFee: { amount: '52.64', deliveredBy: 'MERCHANT' } } });
    // 52.64 over 294.64: 42.93 → 7.6698 → 7.67; 85.86 → 15.3396 → 15.34; 42.93 → 7.67; 55.90 → 9.9868 → 9.99;
    // 34.27 → 6.1226 → 6.12; the last takes 52.64 − 46.79 = 5.85.
    expect(serviceSplit(5264, [4293, 8586, 4293, 5590, 3427, 3275])).toEqual([767, 1534, 767, 999, 612, 585]);
  });

  it('refuses a document whose items of one NCM carry different rules', () => {
    const document = readRealDocument('35180834128745000152550010000476711079516696-nfe.xml');
    document.items[1]!.prod.NCM = document.items[0]!.prod.NCM;
    expect(() => serviceSetupOf(document, ids)).toThrow(/items of NCM 21069010 carry different rules/);
  });
});
