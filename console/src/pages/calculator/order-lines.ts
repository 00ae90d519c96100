import { isObj, type Obj } from '../../common/values';
import { amountOf, orderOf } from './calculator-request';

/**
 * The calculator's lines as a form: product id, name, quantity and unit price of each product of
 * the platform's order. The rest of a product (modifiers, codes...) is kept as it was, so that
 * going from the JSON to the form and back loses nothing. Pure, so it is unit tested.
 */
export interface LineValues {
  uid: string;
  productId: string;
  name: string;
  quantity: string;
  unitPrice: string;
  /** The product's other fields, as read from the JSON. */
  rest: Obj;
  /** The quantity and unit price as read: while they are unchanged, the product's own price is sent as it was. */
  read: { quantity: string; unitPrice: string };
}

let uids = 0;
export const newLine = (): LineValues => ({
  uid: `line-${++uids}`,
  productId: '',
  name: '',
  quantity: '1',
  unitPrice: '',
  rest: {},
  read: { quantity: '', unitPrice: '' },
});

const typed = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** The unit price where the API reads it: `price.unitPrice.total`, `price.unitPrice` or `unitPrice`. */
function unitPriceOf(product: Obj): unknown {
  const price = isObj(product.price) ? product.price : undefined;
  const unit = price?.unitPrice;
  return isObj(unit) ? unit.total : (unit ?? product.unitPrice);
}

/** The products of a platform order (at the root or under `payload`) as form lines. */
export function linesOf(body: Obj): LineValues[] {
  const order = orderOf(body).order;
  const products = isObj(order) && Array.isArray(order.products) ? order.products : [];
  return products.filter(isObj).map((product) => {
    const { productId, name, quantity, ...rest } = product;
    const values = { quantity: typed(quantity), unitPrice: typed(unitPriceOf(product)) };
    return { ...newLine(), productId: typed(productId), name: typed(name), ...values, rest, read: values };
  });
}

/** A line as the API's product: a changed quantity or unit price is sent as the unit price, which the API multiplies. */
function productOf(line: LineValues): Obj {
  const product: Obj = { ...line.rest };
  const id = line.productId.trim();
  if (id !== '') product.productId = id;
  if (line.name.trim() !== '') product.name = line.name.trim();
  product.quantity = amountOf(line.quantity) ?? line.quantity;
  const changed = line.quantity !== line.read.quantity || line.unitPrice !== line.read.unitPrice;
  if (changed || !('price' in line.rest)) {
    delete product.unitPrice;
    const unit = amountOf(line.unitPrice);
    product.price = unit === undefined ? {} : { unitPrice: { total: unit } };
  }
  return product;
}

/**
 * The order with the form's lines as its products. The order's `total`, written for other lines,
 * is left out: the service does not need it, and a stale one would be shown beside the result.
 */
export function withLines(body: Obj, lines: LineValues[]): Obj {
  const copy = structuredClone(body);
  const root = orderOf(copy);
  root.order = { ...(isObj(root.order) ? root.order : {}), products: lines.map(productOf) };
  delete root.total;
  return copy;
}
