import type { Schemas } from './api.js';

export type Group = Schemas['FiscalGroupResponseDto'];
export type NewGroup = Schemas['CreateFiscalGroupDto'];

/** The matrix every test group starts with; 1905's 7.0001 % checks that rates come back exactly as sent. */
export const RULES = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  '22021000': {
    NCM: '22021000',
    CEST: '0300700',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
  },
  '1905': { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 7.0001, CST_PIS: '01', PIS_rate: 1.65, CST_COFINS: '01', COFINS_rate: 7.6 },
};

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** A valid new group on a store of its own. */
export function groupBody(overrides: Partial<NewGroup> = {}): NewGroup {
  return {
    externalId: unique('ext'),
    name: 'Restaurants SP',
    uf: 'SP',
    taxRegime: 'LUCRO_PRESUMIDO',
    stores: [{ store_id: unique('store'), store_name: 'Paulista' }],
    taxMatrix: RULES,
    ...overrides,
  };
}
