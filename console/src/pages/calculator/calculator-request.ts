import type { paths } from '../../api/client';
import { isObj, text, type Obj } from '../../common/values';

/**
 * What the calculator sends: the order typed in the editor (the platform's shape, or iFood's with
 * `?profile=ifood`) and, for the platform's shape, the order-level discounts, delivery fee,
 * service charge and other charges of the form, put under `order`. Pure, so it is unit tested.
 */

export type CalculatorMode = 'order' | 'ifood';

/** The route's query: `dryRun`, and `profile` for an iFood order. */
export type EnrichQuery = NonNullable<paths['/api/enrich-order']['post']['parameters']['query']>;

export const DISCOUNT_SPONSORS = ['MERCHANT', 'PLATFORM', 'THIRD_PARTY'] as const;
export const DISCOUNT_TARGETS = ['ITEMS', 'ITEM', 'DELIVERY_FEE'] as const;
export const CHARGED_BY = ['MERCHANT', 'PLATFORM'] as const;

export interface DiscountValues {
  uid: string;
  amount: string;
  sponsor: (typeof DISCOUNT_SPONSORS)[number];
  target: (typeof DISCOUNT_TARGETS)[number];
  /** The line (0-based, as text for the select) an `ITEM` discount applies to. */
  productIndex: string;
  description: string;
}

export interface OtherChargeValues {
  uid: string;
  amount: string;
  chargedBy: (typeof CHARGED_BY)[number];
  description: string;
}

export interface AdjustmentValues {
  discounts: DiscountValues[];
  deliveryFee: { amount: string; deliveredBy: (typeof CHARGED_BY)[number] };
  serviceCharge: { amount: string };
  otherCharges: OtherChargeValues[];
}

export const emptyAdjustments = (): AdjustmentValues => ({
  discounts: [],
  deliveryFee: { amount: '', deliveredBy: 'MERCHANT' },
  serviceCharge: { amount: '' },
  otherCharges: [],
});

let uids = 0;
const uid = () => `row-${++uids}`;
export const newDiscount = (): DiscountValues => ({
  uid: uid(),
  amount: '',
  sponsor: 'MERCHANT',
  target: 'ITEMS',
  productIndex: '0',
  description: '',
});
export const newOtherCharge = (): OtherChargeValues => ({ uid: uid(), amount: '', chargedBy: 'MERCHANT', description: '' });

/**
 * An amount as typed: a number when it reads as one (a decimal comma accepted, as written in
 * Brazil), otherwise the text itself, for the API to refuse at its path; undefined when blank.
 */
export function amountOf(typed: string): number | string | undefined {
  const trimmed = typed.trim();
  if (trimmed === '') return undefined;
  const normalized = /^-?\d+,\d+$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed;
  return /^-?\d+(\.\d+)?$/.test(normalized) ? Number(normalized) : trimmed;
}

/**
 * The order-level fields of the form. Every discount and charge row is sent, even half filled,
 * so that a problem the API names by index (`order.discounts[1].amount`) is the form's row 2;
 * the fee and the service charge only when an amount is given.
 */
export function adjustmentsOf(values: AdjustmentValues): Obj {
  const fields: Obj = {};
  if (values.discounts.length > 0)
    fields.discounts = values.discounts.map((discount) =>
      dropUndefined({
        amount: amountOf(discount.amount),
        sponsor: discount.sponsor,
        target: discount.target,
        productIndex: discount.target === 'ITEM' ? Number(discount.productIndex) : undefined,
        description: text(discount.description.trim()),
      }),
    );
  if (values.deliveryFee.amount.trim() !== '')
    fields.deliveryFee = { amount: amountOf(values.deliveryFee.amount), deliveredBy: values.deliveryFee.deliveredBy };
  if (values.serviceCharge.amount.trim() !== '') fields.serviceCharge = { amount: amountOf(values.serviceCharge.amount) };
  if (values.otherCharges.length > 0)
    fields.otherCharges = values.otherCharges.map((charge) =>
      dropUndefined({ amount: amountOf(charge.amount), chargedBy: charge.chargedBy, description: text(charge.description.trim()) }),
    );
  return fields;
}

function dropUndefined(record: Obj): Obj {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** The platform's order inside a body: at the root or under `payload`, as the API takes it. */
export function orderOf(body: Obj): Obj {
  return isObj(body.payload) ? body.payload : body;
}

/**
 * The request for a body typed in the editor. In the platform's shape, the form's fields replace
 * the same fields of `order` (the others are kept); an iFood order is sent as it is, with its own
 * benefits and fees.
 */
export function calculationRequest(mode: CalculatorMode, body: Obj, adjustments: AdjustmentValues): { query: EnrichQuery; body: Obj } {
  if (mode === 'ifood') return { query: { dryRun: true, profile: 'ifood' }, body };
  const fields = adjustmentsOf(adjustments);
  if (Object.keys(fields).length === 0) return { query: { dryRun: true }, body };
  const copy = structuredClone(body);
  const root = orderOf(copy);
  root.order = { ...(isObj(root.order) ? root.order : {}), ...fields };
  return { query: { dryRun: true }, body: copy };
}

/** Where each shape keeps the store: `store.id` in the platform's order, `merchant.id` in iFood's. */
export function storeIdOf(mode: CalculatorMode, body: Obj): string {
  const holder = mode === 'ifood' ? body.merchant : orderOf(body).store;
  const id = isObj(holder) ? holder.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : '';
}

export function withStoreId(mode: CalculatorMode, body: Obj, storeId: string): Obj {
  const copy = structuredClone(body);
  const root = mode === 'ifood' ? copy : orderOf(copy);
  const key = mode === 'ifood' ? 'merchant' : 'store';
  root[key] = { ...(isObj(root[key]) ? root[key] : {}), id: storeId };
  return copy;
}

/** The lines an `ITEM` discount may name: index and name (or product id) of each product of the typed order. */
export function lineChoicesOf(body: Obj | undefined): { value: string; label: string }[] {
  const order = body ? orderOf(body).order : undefined;
  const products = isObj(order) && Array.isArray(order.products) ? order.products : [];
  return products.map((product, index) => {
    const name = isObj(product) ? (text(product.name) ?? text(product.productId)) : undefined;
    return { value: String(index), label: name ? `${index + 1}. ${name}` : String(index + 1) };
  });
}

/**
 * The form field a problem of the API's 400 names (`order.discounts[1].sponsor` → `discounts.1.sponsor`),
 * or undefined for a problem outside the form (the editor's JSON).
 */
export function formFieldOf(apiField: string): string | undefined {
  const path = apiField.replace(/^payload\./, '');
  const row = /^order\.(discounts|otherCharges)\[(\d+)\](?:\.(\w+))?$/.exec(path);
  if (row) return `${row[1]}.${row[2]}.${row[3] ?? 'amount'}`;
  const single = /^order\.(deliveryFee|serviceCharge)(?:\.(\w+))?$/.exec(path);
  if (single) return `${single[1]}.${single[2] ?? 'amount'}`;
  return undefined;
}
