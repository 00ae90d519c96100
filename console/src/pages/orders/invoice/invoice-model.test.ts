import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../api/client';
import { invoiceItemsOf, invoiceProblemsOf, invoiceTotalsOf, nameAtPath } from './invoice-model';

/*
 * A burger of 30.00 with a coupon share of 3.00 and a freight share of 4.50 (net 31.50), CST 00 at 18 %:
 *   vICMS = 31.50 × 18 % = 5.67; PIS/COFINS base = 31.50 − 5.67 = 25.83;
 *   vPIS = 25.83 × 1.65 % = 0.426195 → 0.43; vCOFINS = 25.83 × 7.6 % = 1.96308 → 1.96.
 * A soda of 10.00, CST 20 with pRedBC 40 % and FCP 2 %: vBC = 10.00 × 60 % = 6.00, vICMS = 6.00 × 18 % = 1.08,
 *   vFCP = 6.00 × 2 % = 0.12; PIS not taxed (PISNT 07).
 */
const DOCUMENT: Schemas['NfeItemsDto'] = {
  orderId: 'ORD-1',
  model: '65',
  crt: '3',
  layout: 'PL_010_V1.30',
  det: [
    {
      '@nItem': '1',
      prod: {
        cProd: 'burger',
        cEAN: 'SEM GTIN',
        xProd: 'Burger',
        NCM: '21069090',
        CFOP: '5102',
        uCom: 'UN',
        qCom: '1.0000',
        vUnCom: '30.0000000000',
        vProd: '30.00',
        vFrete: '4.50',
        vDesc: '3.00',
        indTot: '1',
      },
      imposto: {
        ICMS: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '31.50', pICMS: '18.0000', vICMS: '5.67' } },
        PIS: { PISAliq: { CST: '01', vBC: '25.83', pPIS: '1.6500', vPIS: '0.43' } },
        COFINS: { COFINSAliq: { CST: '01', vBC: '25.83', pCOFINS: '7.6000', vCOFINS: '1.96' } },
        IBSCBS: {
          CST: '000',
          cClassTrib: '000001',
          gIBSCBS: {
            vBC: '31.50',
            gIBSUF: { pIBSUF: '0.1000', vIBSUF: '0.03' },
            gIBSMun: { pIBSMun: '0.0000', vIBSMun: '0.00' },
            vIBS: '0.03',
            gCBS: { pCBS: '0.9000', vCBS: '0.28' },
          },
        },
      },
    },
    {
      '@nItem': '2',
      prod: { cProd: 'soda', xProd: 'Soda', NCM: '22021000', CEST: '0300700', CFOP: '5405', qCom: '2.0000', vUnCom: '5', vProd: '10.00' },
      imposto: {
        ICMS: {
          ICMS20: {
            orig: '0',
            CST: '20',
            modBC: '3',
            pRedBC: '40.0000',
            vBC: '6.00',
            pICMS: '18.0000',
            vICMS: '1.08',
            vBCFCP: '6.00',
            pFCP: '2.0000',
            vFCP: '0.12',
          },
        },
        PIS: { PISNT: { CST: '07' } },
        COFINS: { COFINSNT: { CST: '07' } },
      },
    },
  ],
  total: {
    // vNF = vProd 40.00 − vDesc 3.00 + vFrete 4.50 = 41.50
    ICMSTot: { vBC: '37.50', vICMS: '6.75', vFCP: '0.12', vProd: '40.00', vFrete: '4.50', vDesc: '3.00', vNF: '41.50' },
    IBSCBSTot: { vBCIBSCBS: '31.50', gIBS: { gIBSUF: { vDif: '0.00', vIBSUF: '0.03' }, vIBS: '0.03' }, gCBS: { vCBS: '0.28' } },
  },
};

describe('invoice items', () => {
  it('reads each item’s prod and every tax group it prints, a row per tax', () => {
    const [burger, soda] = invoiceItemsOf(DOCUMENT);
    expect(burger).toMatchObject({
      nItem: '1',
      cProd: 'burger',
      xProd: 'Burger',
      CFOP: '5102',
      vProd: '30.00',
      vDesc: '3.00',
      vFrete: '4.50',
    });
    expect(burger!.vOutro).toBeUndefined();
    expect(burger!.taxes).toEqual([
      {
        tax: 'ICMS',
        group: 'ICMS00',
        cst: '00',
        csosn: undefined,
        base: '31.50',
        baseReduction: undefined,
        rate: '18.0000',
        value: '5.67',
      },
      { tax: 'PIS', group: 'PISAliq', cst: '01', base: '25.83', rate: '1.6500', value: '0.43' },
      { tax: 'COFINS', group: 'COFINSAliq', cst: '01', base: '25.83', rate: '7.6000', value: '1.96' },
      { tax: 'IBSUF', group: 'IBSCBS', cst: '000', classification: '000001', base: '31.50', rate: '0.1000', value: '0.03' },
      { tax: 'IBSMun', group: 'IBSCBS', cst: '000', classification: '000001', base: '31.50', rate: '0.0000', value: '0.00' },
      { tax: 'CBS', group: 'IBSCBS', cst: '000', classification: '000001', base: '31.50', rate: '0.9000', value: '0.28' },
    ]);
    expect(soda).toMatchObject({ nItem: '2', CEST: '0300700' });
    expect(soda!.taxes.map((row) => [row.tax, row.group, row.cst, row.base, row.rate, row.value])).toEqual([
      ['ICMS', 'ICMS20', '20', '6.00', '18.0000', '1.08'],
      ['FCP', 'ICMS20', undefined, '6.00', '2.0000', '0.12'],
      ['PIS', 'PISNT', '07', undefined, undefined, undefined],
      ['COFINS', 'COFINSNT', '07', undefined, undefined, undefined],
    ]);
    expect(soda!.taxes[0]!.baseReduction).toBe('40.0000');
  });

  it('reads a Simples Nacional item’s CSOSN', () => {
    const [item] = invoiceItemsOf({
      ...DOCUMENT,
      crt: '1',
      det: [{ '@nItem': '', prod: { cProd: 'x', vProd: '1.00' }, imposto: { ICMS: { ICMSSN102: { orig: '0', CSOSN: '102' } } } }],
    });
    expect(item!.nItem).toBe('1');
    expect(item!.taxes).toEqual([expect.objectContaining({ tax: 'ICMS', group: 'ICMSSN102', csosn: '102', cst: undefined })]);
  });

  it('lists every total with its path in the schema, ICMSTot first', () => {
    expect(invoiceTotalsOf(DOCUMENT).map((total) => [total.path, total.value])).toEqual([
      ['ICMSTot/vBC', '37.50'],
      ['ICMSTot/vICMS', '6.75'],
      ['ICMSTot/vFCP', '0.12'],
      ['ICMSTot/vProd', '40.00'],
      ['ICMSTot/vFrete', '4.50'],
      ['ICMSTot/vDesc', '3.00'],
      ['ICMSTot/vNF', '41.50'],
      ['IBSCBSTot/vBCIBSCBS', '31.50'],
      ['IBSCBSTot/gIBS/gIBSUF/vDif', '0.00'],
      ['IBSCBSTot/gIBS/gIBSUF/vIBSUF', '0.03'],
      ['IBSCBSTot/gIBS/vIBS', '0.03'],
      ['IBSCBSTot/gCBS/vCBS', '0.28'],
    ]);
  });
});

describe('why an order cannot be printed', () => {
  const payload = {
    order: {
      products: [
        { name: 'Burger', modifierGroups: [{ selectedModifiers: [{ name: 'Cheese' }] }] },
        { name: 'Fries', tax: null },
      ],
    },
  };

  it('names the line or modifier a path points to', () => {
    expect(nameAtPath(payload, 'order.products[1]')).toBe('Fries');
    expect(nameAtPath(payload, 'order.products[0].modifierGroups[0].selectedModifiers[0]')).toBe('Cheese');
    expect(nameAtPath(payload, 'order.products[1].tax')).toBe('Fries');
    expect(nameAtPath(payload, 'order.products[7]')).toBeUndefined();
    expect(nameAtPath(payload, undefined)).toBeUndefined();
  });

  it('keeps each cause with its code and the item’s name', () => {
    expect(
      invoiceProblemsOf(
        [
          { field: 'order.products[1]', problem: 'the line has no tax', code: 'NO_TAX' },
          { field: 'order.products[0].modifierGroups[0].selectedModifiers[0]', problem: 'no CFOP', code: 'NO_CFOP' },
        ],
        payload,
      ),
    ).toEqual([
      { field: 'order.products[1]', code: 'NO_TAX', problem: 'the line has no tax', itemName: 'Fries' },
      { field: 'order.products[0].modifierGroups[0].selectedModifiers[0]', code: 'NO_CFOP', problem: 'no CFOP', itemName: 'Cheese' },
    ]);
  });
});
