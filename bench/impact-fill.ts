import type pg from 'pg';
import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_STORE_ID, DEMO_TAX_MATRIX } from '../src/demo/demo-data.js';
import { DefaultTaxEngine } from '../src/tax-engine/default-tax-engine.js';
import type { CategoryIndex } from '../src/tax-engine/tax-engine.js';
import { benchmarkOrder } from './order-fixture.js';

const INSERT_BATCH = 1000;

/**
 * `totalOrders` realistic orders of the demo store over the last 23 hours (bench/order-fixture.ts), as the service stores them: the payload as received and its enrichment by the demo group.
 */
export async function fillImpactOrders(client: pg.Client, groupId: string, totalOrders: number): Promise<void> {
  const engine = new DefaultTaxEngine();
  const group = {
    id: groupId,
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
  const now = Date.now();
  const spacingMs = (23 * 3_600_000) / totalOrders;
  for (let first = 0; first < totalOrders; first += INSERT_BATCH) {
    const ids: string[] = [];
    const payloads: string[] = [];
    const enriched: string[] = [];
    const received: string[] = [];
    for (let n = first; n < Math.min(totalOrders, first + INSERT_BATCH); n++) {
      const orderId = `bench-impact-${n}`;
      const payload = benchmarkOrder(orderId);
      ids.push(orderId);
      payloads.push(JSON.stringify(payload));
      enriched.push(JSON.stringify(engine.enrich({ group, categories, payload }).payload));
      received.push(new Date(now - n * spacingMs).toISOString());
    }
    await client.query(
      `INSERT INTO orders (order_id, status, payload, enriched_payload, store_id, source, fiscal_group_id, created_at)
       SELECT o.order_id, 'ENRICHED', o.payload::jsonb, o.enriched::jsonb, $5, 'ifood', $6, o.received
       FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[]) AS o (order_id, payload, enriched, received)`,
      [ids, payloads, enriched, received, DEMO_STORE_ID, groupId],
    );
  }
  await client.query('VACUUM ANALYZE orders');
}
