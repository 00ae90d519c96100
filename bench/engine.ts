/**
 * npm run bench:engine [-- --seconds 10]
 *
 * Lines per second of the pure tax engine on one core (no I/O): the benchmark order
 * (10 lines, 6 selected modifiers) on the demo fiscal group, enriched in a loop.
 */
import { parseArgs } from 'node:util';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_TAX_MATRIX } from '../src/demo/demo-data.js';
import { DefaultTaxEngine } from '../src/tax-engine/default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot } from '../src/tax-engine/tax-engine.js';
import { benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);

const engine = new DefaultTaxEngine();
const group: FiscalGroupSnapshot = {
  id: 'bench',
  externalId: DEMO_GROUP_EXTERNAL_ID,
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  taxMatrix: DEMO_TAX_MATRIX,
  settings: {},
};
const categories: CategoryIndex = {
  byProductId: new Map(DEMO_PRODUCTS.map((product) => [product.productId, product.ncm])),
  byExternalProductId: new Map(
    DEMO_PRODUCTS.filter((product) => product.externalProductId).map((product) => [product.externalProductId!, product.ncm]),
  ),
};
const payload = benchmarkOrder('bench-engine');
const products = (payload.order as { products: Array<{ modifierGroups: Array<{ selectedModifiers: unknown[] }> }> }).products;
const linesPerOrder =
  products.length +
  products.reduce((sum, line) => sum + line.modifierGroups.reduce((count, g) => count + g.selectedModifiers.length, 0), 0);

function run(durationMs: number): { orders: number; ms: number } {
  const started = performance.now();
  let orders = 0;
  while (performance.now() - started < durationMs) {
    for (let index = 0; index < 100; index++) engine.enrich({ group, categories, payload });
    orders += 100;
  }
  return { orders, ms: performance.now() - started };
}

run(1000); // warm-up (JIT)
const { orders, ms } = run(seconds * 1000);
const ordersPerSecond = (orders / ms) * 1000;
process.stdout.write(
  [
    `orders: ${orders} in ${(ms / 1000).toFixed(1)} s (${linesPerOrder} taxable lines each: ${products.length} products + modifiers)`,
    `engine: ${ordersPerSecond.toFixed(0)} orders/s, ${(ordersPerSecond * linesPerOrder).toFixed(0)} lines/s on one core (${((1000 / ordersPerSecond) * 1000).toFixed(1)} µs per order)`,
    '',
  ].join('\n'),
);
