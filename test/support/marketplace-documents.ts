import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseKeepingIntegers } from '../../src/common/exact-integers.js';
import { DefaultTaxEngine } from '../../src/tax-engine/default-tax-engine.js';
import type { CategoryIndex, TaxSummary } from '../../src/tax-engine/tax-engine.js';

/**
 * Marketplace documents kept in `test/fixtures/marketplaces/` (their sources in its README), read as the body
 * parser reads a request (integers past 2^53 kept exactly), and taxed by the real engine with one rule for every
 * product, so that a test can check where each amount of the document landed.
 */

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'marketplaces');

export function marketplaceDocument(relativePath: string): unknown {
  return parseKeepingIntegers(readFileSync(join(FIXTURES, relativePath), 'utf8'));
}

/** ICMS 18 %, PIS 0.65 %, COFINS 3 % on every product: enough to see which amounts enter a base. */
const EVERY_PRODUCT_NCM = '21069090';

interface TaxedItem {
  productId?: string;
  price?: { totalPrice?: { total?: number } };
  tax?: { netAmount?: number; ICMS_base?: number; discount?: number; freight?: number; otherCharges?: number } | null;
  modifierGroups?: Array<{ selectedModifiers?: TaxedItem[] }>;
}

export interface TaxedDocument {
  summary: TaxSummary;
  /** Every taxed line and modifier, in payload order. */
  items: TaxedItem[];
  payload: Record<string, unknown>;
}

/** The mapped order taxed with one rule for every product id it names. */
export function taxEveryProduct(order: Record<string, unknown>): TaxedDocument {
  const products = ((order.order as { products?: TaxedItem[] }).products ?? []) as TaxedItem[];
  const ids = new Map<string, string>();
  for (const line of products) {
    if (line.productId) ids.set(line.productId, EVERY_PRODUCT_NCM);
    for (const group of line.modifierGroups ?? [])
      for (const modifier of group.selectedModifiers ?? []) if (modifier.productId) ids.set(modifier.productId, EVERY_PRODUCT_NCM);
  }
  const categories: CategoryIndex = { byProductId: ids, byExternalProductId: new Map() };
  const result = new DefaultTaxEngine().enrich({
    group: {
      id: 'g-marketplaces',
      externalId: null,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      taxMatrix: {
        [EVERY_PRODUCT_NCM]: {
          NCM: EVERY_PRODUCT_NCM,
          CEST: '',
          CFOP: '5102',
          CST_ICMS: '00',
          ICMS_rate: 18,
          CST_PIS: '01',
          PIS_rate: 0.65,
          CST_COFINS: '01',
          COFINS_rate: 3,
        },
      },
      settings: {},
    },
    categories,
    payload: structuredClone(order),
  });
  const payload = result.payload as Record<string, unknown>;
  const taxedProducts = ((payload.order as { products?: TaxedItem[] }).products ?? []) as TaxedItem[];
  const items = taxedProducts.flatMap((line) => [line, ...(line.modifierGroups ?? []).flatMap((group) => group.selectedModifiers ?? [])]);
  return { summary: payload.taxSummary as TaxSummary, items, payload };
}

/** Cents of a money number (exact for the service's 2-decimal amounts). */
export function cents(value: number | undefined): number {
  return Math.round((value ?? 0) * 100);
}

/** The sum of the items' net amounts (what enters the ICMS base), in cents. */
export function netAmountCents(taxed: TaxedDocument): number {
  return taxed.items.reduce((sum, item) => sum + cents(item.tax?.netAmount ?? item.tax?.ICMS_base), 0);
}
