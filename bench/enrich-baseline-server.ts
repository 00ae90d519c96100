/**
 * The baseline of `npm run bench:enrich`: a bare Fastify server that parses the JSON body
 * and runs the same INSERT … ON CONFLICT of the same payload through pg, nothing else.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { upsertOrderSql } from '../src/orders/orders.repository.js';
import { newWebhookId } from '../src/orders/webhook-id.js';

const UPSERT_ORDER_SQL = upsertOrderSql();

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
  try {
    done(null, { text: body, value: JSON.parse(body as string) });
  } catch (error) {
    done(error as Error, undefined);
  }
});

app.post('/baseline', async (request) => {
  const { text, value } = request.body as { text: string; value: { orderId: string; source?: string; store?: { id?: string } } };
  const { rows } = await pool.query(UPSERT_ORDER_SQL, [
    value.orderId,
    'ENRICHED',
    text,
    text,
    value.store?.id ?? null,
    value.source ?? null,
    null,
    null,
    'baseline',
    null, // every store: the writer is not limited to stores
    newWebhookId(),
    '', // no personal-data keys: the baseline computes nothing from the payload
    null, // no forward's outbox
  ]);
  return { orderDbId: rows[0].id, orderId: value.orderId };
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
