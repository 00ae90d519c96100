import type { LineTax } from '../../tax-engine/tax-engine.js';
import {
  cofinsGroup,
  ibsCbsGroup,
  ICMS_GROUP_BY_CSOSN,
  ICMS_GROUP_BY_CST,
  icmsNormalGroup,
  icmsSimplesGroup,
  newPrintedSums,
  pisCofinsGroupOf,
  pisGroup,
} from './nfe-groups.js';

/** A line's tax as the engine writes it: 100.00 at ICMS 18 %, PIS 0.65 %, COFINS 3 %. */
function tax(overrides: Partial<LineTax> = {}): LineTax {
  return {
    NCM: '21069090',
    CEST: '',
    CFOP: '5102',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    // 100.00 × 18 % = 18.00; PIS/COFINS base 82.00: 0.533 → 0.53 and 2.46
    ICMS_base: 100,
    ICMS_value: 18,
    PIS_base: 82,
    PIS_value: 0.53,
    COFINS_base: 82,
    COFINS_value: 2.46,
    total_tax: 20.99,
    matchedBy: 'productId',
    matchedKey: '2106',
    zeroReasons: {},
    ...overrides,
  };
}

describe('the table from CST/CSOSN to group', () => {
  it('maps every CST and CSOSN the service prints, and no other', () => {
    expect(ICMS_GROUP_BY_CST).toEqual({
      '00': 'ICMS00',
      '20': 'ICMS20',
      '40': 'ICMS40',
      '41': 'ICMS40',
      '50': 'ICMS40',
      '51': 'ICMS51',
      '60': 'ICMS60',
      '90': 'ICMS90',
    });
    expect(ICMS_GROUP_BY_CSOSN).toEqual({
      '102': 'ICMSSN102',
      '103': 'ICMSSN102',
      '300': 'ICMSSN102',
      '400': 'ICMSSN102',
      '500': 'ICMSSN500',
      '900': 'ICMSSN900',
    });
  });

  it.each([
    ['01', 'Aliq'],
    ['02', 'Aliq'],
    ['04', 'NT'],
    ['09', 'NT'],
    ['49', 'Outr'],
    ['70', 'Outr'],
    ['99', 'Outr'],
    ['03', undefined],
    ['10', undefined],
  ])('PIS/COFINS CST %s → %s', (cst, kind) => {
    expect(pisCofinsGroupOf(cst)).toBe(kind);
  });
});

describe('ICMS of the normal regime', () => {
  it('CST 00: modBC 3, base, rate, value, added to the sums', () => {
    const sums = newPrintedSums();
    expect(icmsNormalGroup(tax(), '0', sums)).toEqual({
      element: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '100.00', pICMS: '18.0000', vICMS: '18.00' } },
    });
    expect(sums).toMatchObject({ vBC: 10000, vICMS: 1800 });
  });

  it('3-digit CST: the last two digits are the CST', () => {
    expect(icmsNormalGroup(tax({ CST_ICMS: '041', ICMS_value: 0 }), '0', newPrintedSums()).element).toEqual({
      ICMS40: { orig: '0', CST: '41' },
    });
  });

  it('FCP printed only with a rate above 0, summed', () => {
    const sums = newPrintedSums();
    // 100.00 × 2 % = 2.00
    const element = icmsNormalGroup(tax({ FCP_rate: 2, FCP_base: 100, FCP_value: 2 }), '0', sums).element;
    expect(element).toEqual({
      ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '100.00', pICMS: '18.0000', vICMS: '18.00', pFCP: '2.0000', vFCP: '2.00' },
    });
    expect(sums.vFCP).toBe(200);
    expect(icmsNormalGroup(tax({ FCP_rate: 0, FCP_base: 100, FCP_value: 0 }), '0', newPrintedSums()).element).toEqual({
      ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '100.00', pICMS: '18.0000', vICMS: '18.00' },
    });
  });

  it.each(['10', '30', '70', '210'])('CST %s needs ICMS-ST figures: not issuable', (cst) => {
    expect(icmsNormalGroup(tax({ CST_ICMS: cst }), '0', newPrintedSums()).problem?.code).toBe('ICMS_ST_NOT_COMPUTED');
  });

  it('another CST has no group', () => {
    expect(icmsNormalGroup(tax({ CST_ICMS: '61' }), '0', newPrintedSums()).problem?.code).toBe('ICMS_CST_NOT_SUPPORTED');
  });
});

describe('ICMS of Simples Nacional', () => {
  it.each(['101', '201', '202', '203', '00', '20'])('%s is not issuable (CSOSN_NOT_SUPPORTED)', (cst) => {
    expect(icmsSimplesGroup(tax({ CST_ICMS: cst }), '0', newPrintedSums()).problem?.code).toBe('CSOSN_NOT_SUPPORTED');
  });

  it('CSOSN 900 prints its charged ICMS; 102 nothing; neither adds what it does not print', () => {
    const sums = newPrintedSums();
    expect(icmsSimplesGroup(tax({ CST_ICMS: '102', ICMS_value: 0 }), '0', sums).element).toEqual({
      ICMSSN102: { orig: '0', CSOSN: '102' },
    });
    expect(sums.vBC).toBe(0);
    expect(icmsSimplesGroup(tax({ CST_ICMS: '900' }), '0', sums).element).toEqual({
      ICMSSN900: { orig: '0', CSOSN: '900', modBC: '3', vBC: '100.00', pICMS: '18.0000', vICMS: '18.00' },
    });
    expect(sums).toMatchObject({ vBC: 10000, vICMS: 1800 });
  });
});

describe('PIS and COFINS', () => {
  it('a charged tax prints base, rate and value; a Simples one zeros', () => {
    const sums = newPrintedSums();
    expect(pisGroup(tax(), sums).element).toEqual({ PISAliq: { CST: '01', vBC: '82.00', pPIS: '0.6500', vPIS: '0.53' } });
    expect(cofinsGroup(tax({ zeroReasons: { COFINS: 'SIMPLES_NACIONAL' }, COFINS_value: 0 }), sums).element).toEqual({
      COFINSAliq: { CST: '01', vBC: '0.00', pCOFINS: '0.0000', vCOFINS: '0.00' },
    });
    expect(sums).toMatchObject({ vPIS: 53, vCOFINS: 0 });
  });

  it('CST 03 (by quantity) is not issuable', () => {
    expect(pisGroup(tax({ CST_PIS: '03' }), newPrintedSums()).problem).toEqual({
      code: 'PIS_COFINS_CST_NOT_SUPPORTED',
      problem: expect.stringContaining('03'),
    });
    expect(cofinsGroup(tax({ CST_COFINS: '03' }), newPrintedSums()).problem?.code).toBe('PIS_COFINS_CST_NOT_SUPPORTED');
  });
});

describe('IBS/CBS', () => {
  it('none without reform figures', () => {
    expect(ibsCbsGroup(tax(), newPrintedSums())).toBeUndefined();
  });

  it('reform rates without CST_IBSCBS and cClassTrib are not issuable', () => {
    expect(ibsCbsGroup(tax({ IBSCBS_base: 79, CBS_rate: 0.9, CBS_value: 0.71 }), newPrintedSums())?.problem?.code).toBe('NO_CCLASSTRIB');
  });

  it('a rate the rule lacks prints 0', () => {
    const sums = newPrintedSums();
    // 79.00 × 0.9 % = 0.711 → 0.71
    expect(
      ibsCbsGroup(tax({ CST_IBSCBS: '000', cClassTrib: '000001', IBSCBS_base: 79, CBS_rate: 0.9, CBS_value: 0.71 }), sums)?.element,
    ).toEqual({
      IBSCBS: {
        CST: '000',
        cClassTrib: '000001',
        gIBSCBS: {
          vBC: '79.00',
          gIBSUF: { pIBSUF: '0.0000', vIBSUF: '0.00' },
          gIBSMun: { pIBSMun: '0.0000', vIBSMun: '0.00' },
          vIBS: '0.00',
          gCBS: { pCBS: '0.9000', vCBS: '0.71' },
        },
      },
    });
    expect(sums).toMatchObject({ hasIbsCbs: true, vBCIBSCBS: 7900, vCBS: 71 });
  });
});
