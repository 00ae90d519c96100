import type { TaxMatrix } from '../tax-engine/tax-rule.js';

/**
 * A restaurant in São Paulo under Lucro Presumido (PIS 0.65 %, COFINS 3 %, cumulative),
 * with the products a burger place sells. Plausible figures for a demo, not tax advice.
 */
export const DEMO_STORE_ID = 'demo-store-1';
export const DEMO_GROUP_EXTERNAL_ID = 'demo-restaurant-sp';

export const DEMO_TAX_MATRIX: TaxMatrix = {
  // Prepared meals (burgers, sandwiches): taxed normally.
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
  // Chips and fries (prepared potatoes).
  '20052000': {
    NCM: '20052000',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  // Cheese (an extra on a burger).
  '04069000': {
    NCM: '04069000',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 7,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  // Soft drinks: ICMS already collected by tax substitution (CST 60); PIS/COFINS single-phase, zero on resale (CST 04).
  '22021000': {
    NCM: '22021000',
    CEST: '0300700',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
    CFOP: '5405',
  },
  // Mineral water: ICMS by tax substitution (CST 60), PIS/COFINS taxed.
  '22011000': {
    NCM: '22011000',
    CEST: '0300400',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5405',
  },
  // Beer: ICMS by tax substitution, PIS/COFINS single-phase (CST 04).
  '22030000': {
    NCM: '22030000',
    CEST: '0302100',
    CST_ICMS: '60',
    ICMS_rate: 20,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
    CFOP: '5405',
  },
  // Desserts: bakery products by heading (prefix fallback for any 1905.xx.xx).
  '1905': {
    NCM: '1905',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  // Ice cream: ICMS by tax substitution.
  '21050010': {
    NCM: '21050010',
    CEST: '2300100',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5405',
  },
};

export const DEMO_PRODUCTS = [
  { productId: 'demo-burger', productName: 'Classic burger', ncm: '21069090', externalProductId: 'SKU-BURGER-01' },
  { productId: 'demo-fries', productName: 'French fries', ncm: '20052000', externalProductId: 'SKU-FRIES-01' },
  { productId: 'demo-extra-cheese', productName: 'Extra cheese', ncm: '04069000', externalProductId: null },
  { productId: 'demo-cola', productName: 'Cola can 350 ml', ncm: '22021000', externalProductId: 'SKU-COLA-350' },
  { productId: 'demo-water', productName: 'Mineral water 500 ml', ncm: '22011000', externalProductId: 'SKU-WATER-500' },
  { productId: 'demo-beer', productName: 'Lager beer 355 ml', ncm: '22030000', externalProductId: 'SKU-BEER-355' },
  { productId: 'demo-brownie', productName: 'Chocolate brownie', ncm: '19059090', externalProductId: null },
  { productId: 'demo-ice-cream', productName: 'Vanilla ice cream', ncm: '21050010', externalProductId: null },
];
