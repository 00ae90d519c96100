import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import { toMoney, type Cents } from '../tax-engine/money.js';
import type { TaxEngineResult, TaxWarning } from '../tax-engine/tax-engine.js';

/** The tax values compared, named as on a line's `tax` and in `taxSummary.totals`; the last three only where a rule carries them. */
export const COMPARED_TAXES = [
  'ICMS_value',
  'PIS_value',
  'COFINS_value',
  'FCP_value',
  'total_tax',
  'CBS_value',
  'IBS_UF_value',
  'IBS_Mun_value',
] as const;
export type ComparedTax = (typeof COMPARED_TAXES)[number];
const REFORM_TAXES: ReadonlySet<ComparedTax> = new Set(['CBS_value', 'IBS_UF_value', 'IBS_Mun_value']);
const TOTAL_TAX = COMPARED_TAXES.indexOf('total_tax');

/** How many lines that lose their taxes are listed (all are counted). */
export const MAX_LISTED_LOST_LINES = 100;
/** How many of the largest changes are listed. */
export const LARGEST_CHANGES = 20;

/** A line's tax values in cents, in the order of COMPARED_TAXES; `present` says which the line carries. */
interface LineCents {
  cents: Cents[];
  present: boolean[];
}

export type TaxValues = Partial<Record<ComparedTax, number>>;

export interface ImpactLine {
  orderId: string;
  orderDbId: string;
  receivedAt: string;
  /** Where the line is in the order, e.g. `order.products[2].modifierGroups[0].selectedModifiers[1]`. */
  path: string;
  productId: string | null;
  /** The product's (or modifier's) name as the order gives it, so that people read the line by its name. */
  productName: string | null;
  /** Null when the line is not taxed. */
  before: TaxValues | null;
  after: TaxValues | null;
  /** after − before, per tax (an untaxed side counts as zero). */
  change: TaxValues;
}

export interface LostLine extends ImpactLine {
  /** The warning the line gets with the proposal; null when the order had more warnings than its summary lists. */
  warning: TaxWarning | null;
}

export interface TaxTotalChange {
  before: number;
  after: number;
  change: number;
}

export interface ImpactFigures {
  compared: { orders: number; lines: number };
  changed: { orders: number; lines: number };
  totals: Partial<Record<ComparedTax, TaxTotalChange>>;
  linesLosingTaxes: { orders: number; lines: number; listed: LostLine[] };
  largestChanges: ImpactLine[];
}

export interface ComparedOrder {
  /** `orders.id`. */
  id: string;
  orderId: string;
  receivedAt: Date;
  before: TaxEngineResult;
  after: TaxEngineResult;
}

interface RankedChange {
  totalTax: Cents;
  sum: Cents;
  line: ImpactLine;
}

/**
 * The comparison of the same orders taxed by two groups, accumulated one order at a time in integer
 * cents (the engine's money values are cents / 100, turned back into cents exactly), so that nothing
 * but the figures of the answer is kept: a few counters, the listed lines and the ranking.
 */
export class ImpactTally {
  private orders = 0;
  private lines = 0;
  private changedOrders = 0;
  private changedLines = 0;
  private lostOrders = 0;
  private lostLines = 0;
  private readonly lostListed: LostLine[] = [];
  private readonly before = COMPARED_TAXES.map(() => 0);
  private readonly after = COMPARED_TAXES.map(() => 0);
  private readonly reformSeen = COMPARED_TAXES.map(() => false);
  private readonly largest: RankedChange[] = [];

  add(order: ComparedOrder): void {
    this.orders += 1;
    this.addTotals(order.before.summary.totals as unknown as Record<string, unknown>, this.before);
    this.addTotals(order.after.summary.totals as unknown as Record<string, unknown>, this.after);
    let orderChanged = false;
    let orderLost = false;
    let warningsByPath: Map<string, TaxWarning> | undefined;
    forEachLinePair(order.before.payload, order.after.payload, (at, beforeItem, afterItem) => {
      this.lines += 1;
      const was = lineCents(beforeItem);
      const now = lineCents(afterItem);
      if (sameTaxes(was, now)) return;
      orderChanged = true;
      this.changedLines += 1;
      const describe = (): ImpactLine => impactLine(order, at, beforeItem, was, now);
      if (was && !now) {
        orderLost = true;
        this.lostLines += 1;
        if (this.lostListed.length < MAX_LISTED_LOST_LINES) {
          warningsByPath ??= new Map(order.after.warnings.map((warning) => [warning.path, warning]));
          const line = describe();
          this.lostListed.push({ ...line, warning: warningsByPath.get(line.path) ?? null });
        }
      }
      this.rank(was, now, describe);
    });
    if (orderChanged) this.changedOrders += 1;
    if (orderLost) this.lostOrders += 1;
  }

  figures(): ImpactFigures {
    const totals: ImpactFigures['totals'] = {};
    COMPARED_TAXES.forEach((tax, index) => {
      if (REFORM_TAXES.has(tax) && !this.reformSeen[index]) return;
      totals[tax] = {
        before: toMoney(this.before[index]!),
        after: toMoney(this.after[index]!),
        change: toMoney(this.after[index]! - this.before[index]!),
      };
    });
    return {
      compared: { orders: this.orders, lines: this.lines },
      changed: { orders: this.changedOrders, lines: this.changedLines },
      totals,
      linesLosingTaxes: { orders: this.lostOrders, lines: this.lostLines, listed: this.lostListed },
      largestChanges: this.largest.map((ranked) => ranked.line),
    };
  }

  private addTotals(totals: Record<string, unknown>, into: Cents[]): void {
    COMPARED_TAXES.forEach((tax, index) => {
      const value = totals[tax];
      if (typeof value !== 'number') return;
      into[index] = into[index]! + centsOf(value);
      if (REFORM_TAXES.has(tax)) this.reformSeen[index] = true;
    });
  }

  /** Keeps the LARGEST_CHANGES largest by |change of total_tax|, then by the sum of every |change|; the first seen wins a tie. */
  private rank(was: LineCents | undefined, now: LineCents | undefined, describe: () => ImpactLine): void {
    let sum = 0;
    for (let index = 0; index < COMPARED_TAXES.length; index++) sum += Math.abs(valueAt(now, index) - valueAt(was, index));
    const totalTax = Math.abs(valueAt(now, TOTAL_TAX) - valueAt(was, TOTAL_TAX));
    const larger = (ranked: RankedChange) => totalTax > ranked.totalTax || (totalTax === ranked.totalTax && sum > ranked.sum);
    if (this.largest.length === LARGEST_CHANGES && !larger(this.largest[LARGEST_CHANGES - 1]!)) return;
    let place = this.largest.length;
    while (place > 0 && larger(this.largest[place - 1]!)) place--;
    this.largest.splice(place, 0, { totalTax, sum, line: describe() });
    if (this.largest.length > LARGEST_CHANGES) this.largest.pop();
  }
}

/** Where a line is: its index, and its modifier group's and modifier's (-1 for a product line). */
interface LineAt {
  line: number;
  group: number;
  modifier: number;
}

function pathOf({ line, group, modifier }: LineAt): string {
  return group < 0 ? `order.products[${line}]` : `order.products[${line}].modifierGroups[${group}].selectedModifiers[${modifier}]`;
}

/**
 * Calls `visit` for each product and selected modifier of two enrichments of the same payload (the engine
 * copies the payload's shape, so both have the same lines at the same places).
 */
function forEachLinePair(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  visit: (at: LineAt, was: unknown, now: unknown) => void,
): void {
  const beforeLines = productsOf(before);
  const afterLines = productsOf(after);
  for (let line = 0; line < beforeLines.length; line++) {
    const beforeLine: unknown = beforeLines[line];
    const afterLine: unknown = afterLines[line];
    visit({ line, group: -1, modifier: -1 }, beforeLine, afterLine);
    const beforeGroups = isPlainObject(beforeLine) ? beforeLine.modifierGroups : undefined;
    const afterGroups = isPlainObject(afterLine) ? afterLine.modifierGroups : undefined;
    if (!Array.isArray(beforeGroups) || !Array.isArray(afterGroups)) continue;
    for (let group = 0; group < beforeGroups.length; group++) {
      const beforeModifiers = selectedModifiersOf(beforeGroups[group]);
      const afterModifiers = selectedModifiersOf(afterGroups[group]);
      for (let modifier = 0; modifier < beforeModifiers.length; modifier++) {
        visit({ line, group, modifier }, beforeModifiers[modifier], afterModifiers[modifier]);
      }
    }
  }
}

function productsOf(payload: Record<string, unknown>): unknown[] {
  const order = payload.order;
  const products = isPlainObject(order) ? order.products : undefined;
  return Array.isArray(products) ? products : [];
}

function selectedModifiersOf(group: unknown): unknown[] {
  const modifiers = isPlainObject(group) ? group.selectedModifiers : undefined;
  return Array.isArray(modifiers) ? modifiers : [];
}

/** The line's taxes in cents, or undefined when the engine left it untaxed (`tax: null`, or not an object). */
function lineCents(item: unknown): LineCents | undefined {
  const tax = isPlainObject(item) ? item.tax : undefined;
  if (!isPlainObject(tax)) return undefined;
  const cents: Cents[] = [];
  const present: boolean[] = [];
  for (const name of COMPARED_TAXES) {
    const value = tax[name];
    present.push(typeof value === 'number');
    cents.push(typeof value === 'number' ? centsOf(value) : 0);
  }
  return { cents, present };
}

function sameTaxes(was: LineCents | undefined, now: LineCents | undefined): boolean {
  if (!was || !now) return was === now;
  for (let index = 0; index < COMPARED_TAXES.length; index++) {
    if (was.cents[index] !== now.cents[index] || was.present[index] !== now.present[index]) return false;
  }
  return true;
}

function valueAt(line: LineCents | undefined, index: number): Cents {
  return line ? line.cents[index]! : 0;
}

/** The engine writes money as cents / 100 (the double nearest to the decimal): ×100 and rounded is those cents again. */
function centsOf(value: number): Cents {
  return Math.round(value * 100);
}

function valuesOf(line: LineCents | undefined): TaxValues | null {
  if (!line) return null;
  const values: TaxValues = {};
  COMPARED_TAXES.forEach((tax, index) => {
    if (line.present[index] || !REFORM_TAXES.has(tax)) values[tax] = toMoney(line.cents[index]!);
  });
  return values;
}

function impactLine(order: ComparedOrder, at: LineAt, item: unknown, was: LineCents | undefined, now: LineCents | undefined): ImpactLine {
  const change: TaxValues = {};
  COMPARED_TAXES.forEach((tax, index) => {
    const shown = !REFORM_TAXES.has(tax) || was?.present[index] === true || now?.present[index] === true;
    if (shown) change[tax] = toMoney(valueAt(now, index) - valueAt(was, index));
  });
  const productId = (isPlainObject(item) ? idText(item.productId) : undefined) ?? null;
  const productName = isPlainObject(item) && typeof item.name === 'string' && item.name.trim() !== '' ? item.name : null;
  return {
    orderId: order.orderId,
    orderDbId: order.id,
    receivedAt: order.receivedAt.toISOString(),
    path: pathOf(at),
    productId,
    productName,
    before: valuesOf(was),
    after: valuesOf(now),
    change,
  };
}
