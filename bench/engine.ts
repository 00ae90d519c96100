/**
 * npm run bench:engine [-- --seconds 10] [-- --against <checkout>]
 *
 * Lines per second of the pure tax engine on one core (no I/O): the benchmark order
 * (10 lines, 6 selected modifiers) on the demo fiscal group, enriched in a loop.
 *
 * `--against <checkout>` loads another built checkout's engine (its `dist/`, e.g. a worktree of the
 * commit before a change) into this same process and runs both in alternating 100 ms slices, so the
 * machine's load falls on both alike, and prints the ratio: the before-and-after of one change.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_TAX_MATRIX } from '../src/demo/demo-data.js';
import { DefaultTaxEngine } from '../src/tax-engine/default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, TaxEngine } from '../src/tax-engine/tax-engine.js';
import { benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, against: { type: 'string' } } });
const seconds = Number(values.seconds);

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

interface Tally {
  orders: number;
  ms: number;
}

function run(engine: TaxEngine, durationMs: number, tally: Tally = { orders: 0, ms: 0 }): Tally {
  const started = performance.now();
  let orders = 0;
  while (performance.now() - started < durationMs) {
    for (let index = 0; index < 50; index++) engine.enrich({ group, categories, payload });
    orders += 50;
  }
  tally.orders += orders;
  tally.ms += performance.now() - started;
  return tally;
}

const perSecond = ({ orders, ms }: Tally) => (orders / ms) * 1000;
function describe(name: string, tally: Tally): string {
  const ordersPerSecond = perSecond(tally);
  return `${name}: ${ordersPerSecond.toFixed(0)} orders/s, ${(ordersPerSecond * linesPerOrder).toFixed(0)} lines/s on one core (${((1000 / ordersPerSecond) * 1000).toFixed(1)} µs per order)`;
}

const engine = new DefaultTaxEngine();
if (values.against === undefined) {
  run(engine, 1000); // warm-up (JIT)
  const tally = run(engine, seconds * 1000);
  process.stdout.write(
    [
      `orders: ${tally.orders} in ${(tally.ms / 1000).toFixed(1)} s (${linesPerOrder} taxable lines each: ${products.length} products + modifiers)`,
      describe('engine', tally),
      '',
    ].join('\n'),
  );
} else {
  const module = (await import(pathToFileURL(resolve(values.against, 'dist/src/tax-engine/default-tax-engine.js')).href)) as {
    DefaultTaxEngine: new () => TaxEngine;
  };
  const other = new module.DefaultTaxEngine();
  for (let slice = 0; slice < 10; slice++) {
    run(engine, 100);
    run(other, 100);
  }
  const mine: Tally = { orders: 0, ms: 0 };
  const theirs: Tally = { orders: 0, ms: 0 };
  const end = performance.now() + seconds * 1000;
  for (let turn = 0; performance.now() < end; turn++) {
    // Alternate which goes first, so that neither always follows the other's garbage.
    if (turn % 2 === 0) {
      run(engine, 100, mine);
      run(other, 100, theirs);
    } else {
      run(other, 100, theirs);
      run(engine, 100, mine);
    }
  }
  process.stdout.write(
    [
      `${linesPerOrder} taxable lines per order, alternating 100 ms slices for ${seconds} s`,
      describe(`this checkout (engine ${engine.version})`, mine),
      describe(`against ${values.against} (engine ${other.version})`, theirs),
      `ratio this checkout / against: ${(perSecond(mine) / perSecond(theirs)).toFixed(3)}`,
      '',
    ].join('\n'),
  );
}
