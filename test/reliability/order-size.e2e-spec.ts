import { orderPageQuery } from '../../src/orders/order-list.sql.js';
import { ORDER_LIST_PAGE_MAX_BYTES } from '../../src/orders/order-size-bounds.js';
import type { ErrorBody, Schemas } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { enrichedPayloadOf, existingOrderRow, orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

type OrderPage = Schemas['OrderPageDto'];

/**
 * One client could store an order of 500,000 non-object lines (a 60 MB
 * enriched payload), and ten of them made the admin list build one text value over 512 MiB:
 * the driver threw outside any handler and the process exited, again after every restart.
 */

const MIB = 1024 * 1024;

/**
 * Stores `count` orders directly, each with an enriched payload of about `megabytes` MB, as rows
 * stored before the order-size limit and then measured (`payload_bytes`, as OrderPayloadMeasurer
 * leaves them). The document's text is measured once for all rows, with the row trigger off:
 * measuring each 60 MB row again would only slow the setup down. Raw SQL: the documents are built by
 * PostgreSQL itself rather than sent over from the test, with a trigger turned off, which no entity write can do.
 */
async function storeHugeOrders(t: TestApp, prefix: string, count: number, megabytes: number): Promise<string[]> {
  // One warning object is about 100 bytes of JSON text.
  const warnings = Math.round((megabytes * 1_000_000) / 100);
  const rows = await t.dataSource.transaction(async (manager) => {
    // Test scaffolding, not the behaviour under test: room beyond the service's 30 s on a busy machine.
    await manager.query(`SET LOCAL statement_timeout = '180s'`);
    await manager.query('ALTER TABLE orders DISABLE TRIGGER trg_orders_payload_bytes');
    const inserted = await manager.query<Array<{ order_id: string }>>(
      `WITH big AS (
         SELECT jsonb_build_object('orderId', 'huge', 'taxSummary', jsonb_build_object('warnings', jsonb_agg(
           jsonb_build_object('code', 'INVALID_LINE', 'path', 'order.products[' || i || ']', 'message', 'The line is not an object; it was left as is')
         ))) AS doc FROM generate_series(1, $3::integer) AS i
       ),
       measured AS (SELECT doc, octet_length('{"orderId":"huge"}'::jsonb::text) + octet_length(doc::text) AS bytes FROM big)
       INSERT INTO orders (order_id, status, payload, enriched_payload, payload_bytes, store_id, source)
       SELECT $1 || '-' || n, 'ENRICHED', '{"orderId":"huge"}'::jsonb, measured.doc, measured.bytes, $2, 'reliability'
       FROM measured, generate_series(1, $4::integer) AS n
       RETURNING order_id`,
      [prefix, `${prefix}-store`, warnings, count],
    );
    await manager.query('ALTER TABLE orders ENABLE TRIGGER trg_orders_payload_bytes');
    return inserted;
  });
  return rows.map((row) => row.order_id);
}

describe('order size: no order can make the service build an unbounded answer', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('size-store');

  beforeAll(async () => {
    // Never reached: a refused order is not sent.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/never-called' });
    token = await t.adminToken();
    await seedFiscalData(t.http, token, storeId);
  });
  afterAll(() => t.close());

  const lines = (count: number) => Array.from({ length: count }, () => 0);

  describe('ORDER_MAX_LINES (default 2000)', () => {
    it.each([
      ['/enrich-order', {}],
      ['/enrich-order', { dryRun: true }],
      ['/enrich-order-forward', {}],
    ])('refuses 2001 lines on %s %j with 422 ORDER_TOO_LARGE and stores nothing', async (path, query) => {
      const orderId = unique('too-many');
      const order = orderFor(orderId, storeId) as { order: { products: unknown[] } };
      order.order.products = lines(2001);
      const answer = await t.http.post<ErrorBody>(path, order, { token, query });
      expect(answer.status).toBe(422);
      expect(answer.body).toMatchObject({ error: 'ORDER_TOO_LARGE', message: expect.stringContaining('2000') });
      expect(await orderRow(t.dataSource, orderId)).toBeNull();
    });

    it('counts selected modifiers with the lines: 1 line + 2000 modifiers is refused, 1 + 1999 is taxed', async () => {
      const withModifiers = (modifiers: number) => {
        const order = orderFor(unique('modifiers'), storeId) as { orderId: string; order: { products: unknown[] } };
        order.order.products = [
          {
            productId: 'rel-burger',
            quantity: 1,
            price: { totalPrice: { total: 25.9 } },
            modifierGroups: [{ selectedModifiers: lines(modifiers - 1000) }, { selectedModifiers: lines(1000) }],
          },
        ];
        return order;
      };
      const refused = withModifiers(2000);
      expect((await t.http.post('/enrich-order', refused, { token })).status).toBe(422);
      expect(await orderRow(t.dataSource, refused.orderId)).toBeNull();
      const accepted = withModifiers(1999);
      expect((await t.http.post('/enrich-order', accepted, { token })).status).toBe(200);
    });

    it('lists at most 100 warnings, with warningsTruncated counting the others', async () => {
      const orderId = unique('warnings');
      const order = orderFor(orderId, storeId) as { order: { products: unknown[] } };
      order.order.products = lines(2000);
      // Lines outside the schema: sent raw, the answer read as documented.
      const answer = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', order, { token });
      expect(answer.status).toBe(200);
      expect(answer.body.message).toBe('Order enriched with 2000 warning(s)');
      const summary = answer.body.payload.taxSummary;
      expect(summary.warnings).toHaveLength(100);
      expect(summary.warnings[99]).toMatchObject({ code: 'INVALID_LINE', path: 'order.products[99]' });
      // 2000 warnings, 100 listed: 2000 - 100 = 1900 left out.
      expect(summary.warningsTruncated).toBe(1900);
      const stored = await existingOrderRow(t.dataSource, orderId);
      expect(enrichedPayloadOf(stored).taxSummary.warnings).toHaveLength(100);
    });

    it('adds no warningsTruncated when every warning is listed', async () => {
      const answer = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderFor(unique('few'), storeId), { token });
      expect(answer.status).toBe(200);
      expect(answer.body.payload.taxSummary).not.toHaveProperty('warningsTruncated');
    });
  });

  describe('the admin list and detail stay bounded whatever is stored', () => {
    let huge: string[];
    let hugePrefix: string;
    let normalOrderId: string;

    beforeAll(async () => {
      normalOrderId = unique('normal');
      expect((await t.http.post('/enrich-order', orderFor(normalOrderId, storeId), { token })).status).toBe(200);
      // Ten rows of about 60 MB: together over the 512 MiB a JavaScript string can hold.
      hugePrefix = unique('huge');
      huge = await storeHugeOrders(t, hugePrefix, 10, 60);
    }, 180_000);

    it('answers a page holding ten 60 MB orders within the page bound, the small order with its payloads', async () => {
      // The page's size in bytes matters here: read raw, typed as documented.
      const answer = await t.http.get<OrderPage>('/admin/orders', { token, query: { pageSize: 100 } });
      expect(answer.status).toBe(200);
      expect(answer.text.length).toBeLessThan(ORDER_LIST_PAGE_MAX_BYTES + MIB);
      const byOrderId = new Map(answer.body.items.map((item) => [item.orderId, item]));
      for (const orderId of huge) {
        expect(byOrderId.get(orderId)).toMatchObject({ payload: null, enrichedPayload: null, payloadOmitted: 'ORDER_TOO_LARGE_FOR_LIST' });
      }
      const normal = byOrderId.get(normalOrderId);
      expect(normal?.enrichedPayload?.taxSummary).toBeDefined();
      expect(normal).not.toHaveProperty('payloadOmitted');
    }, 120_000);

    it('never converts an order over the bound to text: the page reads none of its stored blocks', async () => {
      // Repeated warnings compress well: each 60 MB document is stored in far fewer bytes, so its
      // stored size alone would let it through to be converted (seconds per order, under load
      // past the statement timeout). The text size kept at write time stops it before.
      const [one] = await t.dataSource.query<Array<{ text_bytes: string; stored_bytes: string; payload_bytes: string }>>(
        `SELECT octet_length(payload::text) + octet_length(enriched_payload::text) AS text_bytes,
                pg_column_size(payload) + pg_column_size(enriched_payload) AS stored_bytes, payload_bytes
         FROM orders WHERE order_id = $1`,
        [huge[0]],
      );
      expect(Number(one.payload_bytes)).toBe(Number(one.text_bytes));
      expect(Number(one.stored_bytes)).toBeLessThan(Number(one.text_bytes) / 4);
      const page = orderPageQuery({ storeId: `${hugePrefix}-store` }, 1, 100);
      const [plan] = await t.dataSource.query<Array<{ 'QUERY PLAN': Array<{ Plan: Record<string, number> }> }>>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${page.sql}`,
        page.params,
      );
      const blocks = plan['QUERY PLAN'][0].Plan;
      const touchedBytes = (blocks['Shared Hit Blocks'] + blocks['Shared Read Blocks']) * 8192;
      // Converting the ten orders would read all their stored bytes; the page reads its rows' heap only.
      expect(touchedBytes).toBeLessThan(Number(one.stored_bytes));
    }, 60_000);

    it('answers the detail of a 60 MB order without its payloads, and the process lives on', async () => {
      const detail = await t.http.get<Schemas['OrderDetailDto']>(`/admin/orders/${huge[0]}`, { token });
      expect(detail.status).toBe(200);
      expect(detail.body).toMatchObject({ orderId: huge[0], payload: null, enrichedPayload: null, payloadOmitted: 'ORDER_TOO_LARGE' });
      expect((await t.http.get('/health/live')).status).toBe(200);
    }, 60_000);

    it('keeps payloads on a page only while the page fits its byte bound', async () => {
      const prefix = unique('page-bound');
      // Six orders of about 3.5 MB (each under the 4 MiB item bound): 6 × 3.5 = 21 MB > 16 MiB.
      const medium = await storeHugeOrders(t, prefix, 6, 3.5);
      const answer = await t.http.get<OrderPage>('/admin/orders', { token, query: { storeId: `${prefix}-store`, pageSize: 10 } });
      expect(answer.status).toBe(200);
      expect(answer.text.length).toBeLessThan(ORDER_LIST_PAGE_MAX_BYTES + MIB);
      const omitted = answer.body.items.map((item) => item.payloadOmitted ?? 'kept');
      expect(answer.body.items).toHaveLength(medium.length);
      // Newest first: the first four fit (4 × 3.5 = 14 MB ≤ 16 MiB), the fifth would not (17.5 MB).
      expect(omitted).toEqual(['kept', 'kept', 'kept', 'kept', 'PAGE_BYTES_EXCEEDED', 'PAGE_BYTES_EXCEEDED']);
      const detail = await t.http.get<Schemas['OrderDetailDto']>(`/admin/orders/${answer.body.items[5]!.id}`, { token });
      expect((detail.body.enrichedPayload as Schemas['EnrichedOrderPayloadDto']).taxSummary.warnings.length).toBeGreaterThan(30_000);
    }, 120_000);
  });
});
