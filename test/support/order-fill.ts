/**
 * Realistic stored orders generated inside PostgreSQL (generate_series), for bench:orders and
 * the query-plan test (test/e2e/order-list-plans). One statement inserts the orders numbered
 * $1..$2:
 *
 * - 200 stores (`store-0001`..`store-0200`), evenly; created_at uniform over the last 90 days;
 * - sources ifood 45 %, rappi 25 %, ubereats 15 %, aiqfome 8 %, site 7 %; orderId
 *   `<IFD|RAP|UBR|AIQ|WEB>-<16 hex digits>`;
 * - statuses as in a running chain: DELIVERED 72 %, CANCELLED 7 %, DISPATCHED 4 %,
 *   IN_PREPARATION 3 %, 2 % each of ENRICHED, FORWARDED, FORWARD_FAILED, ACCEPTED, READY,
 *   REJECTED, 1 % each of RECEIVED and ENRICHMENT_FAILED;
 * - webhook attempts 0 before forwarding, 3 to 10 for FORWARD_FAILED, otherwise 1 plus an
 *   exponential tail capped at 10 (about 5 % of all orders have 3 or more);
 * - payload ≈ 2.5 KB of JSON (customer, address, 3 to 5 lines with modifiers, payments),
 *   enriched payload ≈ 4 KB (payload + taxSummary, and a `tax` object on each line as the engine writes it: every fourth
 *   line CST 60 / CFOP 5405 without ICMS, the others CST 00 / CFOP 5102 at 18 %; the tax report sums them), webhook last
 *   response when forwarded.
 *
 * The bodies come from a pool of 500 generated per statement and get the order's own id,
 * source, store and date, so that building a million of them takes minutes, not an hour.
 */
const RANDOM_CREATED_AT = "now() - random() * interval '90 days'";

export const FILL_ORDERS_SQL = fillOrdersSql();

/**
 * Where `fillOrdersSql` takes each order's customer from: a table of people (`person` int, `customer` jsonb, `keys`
 * text[], the lookup keys of that customer as intake stores them). Order `n` belongs to person 0 when `n` is a multiple
 * of `$4` (so exactly `floor($2 / $4)` orders of a fill of 1..$2 share one person), otherwise to one of the people
 * 1..`$3` picked by a hash of `n` (a few orders each).
 */
export interface FillCustomers {
  table: string;
}

/**
 * FILL_ORDERS_SQL, with options:
 * - `customers`: each order carries its own customer (replacing the pool's) and that customer's personal-data lookup
 *   keys (`personal_data_keys`), as intake stores them; parameters `$3` (people besides person 0) and `$4` (every
 *   `$4`-th order is person 0's) then apply;
 * - `createdAt`: another creation time per order, an SQL expression of `g.n` (the order's number), e.g. increasing with
 *   it, so that orders lie in the table in the order they were created, as intake appends them.
 */
export function fillOrdersSql(options: { customers?: FillCustomers; createdAt?: string } = {}): string {
  const { customers, createdAt = RANDOM_CREATED_AT } = options;
  const customerJoin = customers
    ? `JOIN ${customers.table} c ON c.person = CASE WHEN o.n % $4::bigint = 0 THEN 0
         ELSE 1 + ('x' || substr(md5('person-' || o.n), 1, 7))::bit(28)::int % $3::int END`
    : '';
  const payload = customers ? `(o.payload || jsonb_build_object('customer', c.customer))` : 'o.payload';
  return `
WITH body AS (
  SELECT b.k,
    jsonb_build_object(
      'customer', jsonb_build_object(
        'id', 'c-' || (900000 * random())::int,
        'name', (ARRAY['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João'])[1 + b.k % 10]
                || ' ' || (ARRAY['Silva', 'Souza', 'Oliveira', 'Santos', 'Pereira', 'Lima', 'Costa', 'Ferreira'])[1 + b.k % 8],
        'phone', '+55 11 9' || lpad((random() * 99999999)::int::text, 8, '0'),
        'documentNumber', lpad((random() * 99999999999)::bigint::text, 11, '0'),
        'ordersCountOnMerchant', (random() * 40)::int),
      'delivery', jsonb_build_object('mode', 'DEFAULT', 'deliveredBy', 'MERCHANT',
        'address', jsonb_build_object(
          'streetName', (ARRAY['Avenida Paulista', 'Rua Augusta', 'Rua da Consolação', 'Avenida Rebouças', 'Rua Oscar Freire'])[1 + b.k % 5],
          'streetNumber', (random() * 3000)::int::text, 'complement', 'Apto ' || (random() * 200)::int,
          'neighborhood', 'Bairro ' || (random() * 90)::int, 'city', 'São Paulo', 'state', 'SP',
          'postalCode', lpad((random() * 99999)::int::text, 5, '0') || '-' || lpad((random() * 999)::int::text, 3, '0'),
          'coordinates', jsonb_build_object('latitude', -23.5 - random() / 10, 'longitude', -46.6 - random() / 10))),
      'order', jsonb_build_object('type', 'DELIVERY', 'products', p.products),
      'total', jsonb_build_object('subTotal', p.amount, 'deliveryFee', 7.99, 'benefits', 0, 'orderAmount', p.amount + 7.99),
      'payments', jsonb_build_array(jsonb_build_object('method', (ARRAY['CREDIT', 'DEBIT', 'PIX', 'CASH'])[1 + b.k % 4],
        'type', 'ONLINE', 'value', p.amount + 7.99, 'currency', 'BRL', 'prepaid', true))) AS body,
    jsonb_build_object('taxSummary', jsonb_build_object('uf', 'SP', 'taxRegime', 'LUCRO_PRESUMIDO', 'engineVersion', '1.0.0',
      'totals', jsonb_build_object('base', p.amount, 'ICMS_value', round(p.amount * 0.18, 2), 'PIS_value', round(p.amount * 0.0065, 2),
                                   'COFINS_value', round(p.amount * 0.03, 2), 'total_tax', round(p.amount * 0.2165, 2)),
      'lines', p.tax_lines, 'warnings', '[]'::jsonb),
      'order', jsonb_build_object('type', 'DELIVERY', 'products', p.taxed_products)) AS tax
  FROM generate_series(0, 499) AS b(k)
  CROSS JOIN LATERAL (
    SELECT jsonb_agg(line) AS products, sum(total) AS amount,
           jsonb_agg(jsonb_build_object('productId', line->>'productId', 'NCM', '2106909' || (i % 10), 'CFOP', '5102', 'CST_ICMS', '00',
                                        'ICMS_value', round(total * 0.18, 2))) AS tax_lines,
           jsonb_agg(line || jsonb_build_object('tax', jsonb_build_object('NCM', '2106909' || (i % 10), 'CEST', '',
             'CFOP', CASE WHEN i % 4 = 0 THEN '5405' ELSE '5102' END, 'CST_ICMS', CASE WHEN i % 4 = 0 THEN '60' ELSE '00' END,
             'ICMS_rate', 18, 'CST_PIS', '01', 'PIS_rate', 0.65, 'CST_COFINS', '01', 'COFINS_rate', 3,
             'ICMS_base', total, 'ICMS_value', tx.icms, 'PIS_base', total - tx.icms, 'PIS_value', tx.pis,
             'COFINS_base', total - tx.icms, 'COFINS_value', tx.cofins, 'total_tax', tx.icms + tx.pis + tx.cofins,
             'matchedBy', 'productId', 'matchedKey', '2106909' || (i % 10), 'zeroReasons', '{}'::jsonb))) AS taxed_products
    FROM (
      SELECT i, (1 + (i + b.k) % 3) * (5.9 + (i * 7 + b.k) % 40) AS total,
        jsonb_build_object(
          'id', md5(b.k || '-' || i), 'productId', 'sku-' || (1 + (i * 37 + b.k) % 120),
          'name', (ARRAY['X-Burger', 'X-Salada', 'Batata frita', 'Refrigerante lata', 'Açaí 500 ml', 'Pizza calabresa',
                         'Suco de laranja', 'Pastel de queijo', 'Coxinha', 'Brownie'])[1 + (i + b.k) % 10],
          'quantity', 1 + (i + b.k) % 3, 'observations', CASE WHEN i = 1 THEN 'Sem cebola, por favor' ELSE '' END,
          'price', jsonb_build_object(
            'unitPrice', jsonb_build_object('total', 5.9 + (i * 7 + b.k) % 40, 'currency', 'BRL'),
            'totalPrice', jsonb_build_object('total', (1 + (i + b.k) % 3) * (5.9 + (i * 7 + b.k) % 40), 'currency', 'BRL')),
          'modifierGroups', CASE WHEN i % 2 = 1 THEN jsonb_build_array(jsonb_build_object('id', 'extras', 'name', 'Adicionais',
            'selectedModifiers', jsonb_build_array(jsonb_build_object('id', md5(b.k || '-m-' || i), 'productId', 'extra-' || (i % 7),
              'name', 'Bacon extra', 'quantity', 1,
              'price', jsonb_build_object('unitPrice', jsonb_build_object('total', 4.5), 'totalPrice', jsonb_build_object('total', 4.5)))))) ELSE '[]'::jsonb END) AS line
      FROM generate_series(1, 3 + b.k % 3) AS i
    ) lines
    CROSS JOIN LATERAL (SELECT CASE WHEN i % 4 = 0 THEN 0 ELSE round(total * 0.18, 2) END AS icms) icms
    CROSS JOIN LATERAL (SELECT icms.icms, round((total - icms.icms) * 0.0065, 2) AS pis, round((total - icms.icms) * 0.03, 2) AS cofins) tx
  ) p
), generated AS (
  SELECT g.n, 1 + floor(random() * 200)::int AS store_no, ${createdAt} AS created_at,
    random() AS r1, random() AS r2,
    CASE WHEN q.r0 < 0.45 THEN 'ifood' WHEN q.r0 < 0.70 THEN 'rappi' WHEN q.r0 < 0.85 THEN 'ubereats' WHEN q.r0 < 0.93 THEN 'aiqfome' ELSE 'site' END AS source,
    CASE WHEN q.r0 < 0.45 THEN 'IFD' WHEN q.r0 < 0.70 THEN 'RAP' WHEN q.r0 < 0.85 THEN 'UBR' WHEN q.r0 < 0.93 THEN 'AIQ' ELSE 'WEB' END AS prefix,
    CASE WHEN q.s < 0.01 THEN 'RECEIVED' WHEN q.s < 0.03 THEN 'ENRICHED' WHEN q.s < 0.04 THEN 'ENRICHMENT_FAILED'
         WHEN q.s < 0.06 THEN 'FORWARDED' WHEN q.s < 0.08 THEN 'FORWARD_FAILED' WHEN q.s < 0.10 THEN 'ACCEPTED'
         WHEN q.s < 0.13 THEN 'IN_PREPARATION' WHEN q.s < 0.15 THEN 'READY' WHEN q.s < 0.19 THEN 'DISPATCHED'
         WHEN q.s < 0.26 THEN 'CANCELLED' WHEN q.s < 0.28 THEN 'REJECTED' ELSE 'DELIVERED' END AS status
  FROM generate_series($1::bigint, $2::bigint) AS g(n)
  CROSS JOIN LATERAL (SELECT random() AS r0, random() AS s WHERE g.n IS NOT NULL) q
), orders_to_insert AS (
  SELECT r.*, x.order_id, x.store_id, bb.tax,
    bb.body || jsonb_build_object('orderId', x.order_id, 'source', r.source, 'createdAt', r.created_at,
                                  'store', jsonb_build_object('id', x.store_id, 'name', 'Restaurante ' || r.store_no)) AS payload,
    CASE WHEN r.status IN ('RECEIVED', 'ENRICHED', 'ENRICHMENT_FAILED') THEN 0
         WHEN r.status = 'FORWARD_FAILED' THEN 3 + floor(r.r1 * 8)::int
         ELSE least(10, 1 + floor(-ln(1 - r.r1) * 0.57)::int) END AS attempts,
    40 + (r.r2 * 400)::int AS duration
  FROM generated r
  CROSS JOIN LATERAL (SELECT r.prefix || '-' || upper(substr(md5('order-' || r.n), 1, 16)) AS order_id,
                             'store-' || lpad(r.store_no::text, 4, '0') AS store_id) x
  JOIN body bb ON bb.k = (r.n * 7919) % 500
)
INSERT INTO orders (order_id, status, payload, enriched_payload, webhook_attempts, store_id, source, webhook_last_response,
                    last_changed_by, last_changed_via, created_at, updated_at${customers ? ', personal_data_keys' : ''})
SELECT o.order_id, o.status, ${payload},
  CASE WHEN o.status = 'ENRICHMENT_FAILED' THEN NULL ELSE ${payload} || o.tax END,
  o.attempts, o.store_id, o.source,
  CASE WHEN o.attempts = 0 THEN NULL
       WHEN o.status = 'FORWARD_FAILED' THEN jsonb_build_object('statusCode', 503, 'body', 'upstream unavailable', 'durationMs', o.duration,
                                                                'error', NULL, 'attemptedAt', o.created_at + interval '10 minutes')
       ELSE jsonb_build_object('statusCode', 200, 'body', '{"received":true}', 'durationMs', o.duration, 'error', NULL,
                               'attemptedAt', o.created_at + interval '2 seconds') END,
  '1001', 'POST /api/enrich-order', o.created_at, o.created_at + o.r2 * interval '90 minutes'${customers ? ', c.keys' : ''}
FROM orders_to_insert o ${customerJoin}`;
}

/**
 * The delivery log of the filled orders, one row per counted attempt (2xx mostly, some 503 and timeouts), so that what
 * reads the log (the dashboard's forward outcomes, an erasure) reads a log the size of the orders'.
 */
export const FILL_DELIVERIES_SQL = `
    INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
    SELECT o.id, g, CASE WHEN g = 1 THEN 'forward' ELSE 'retry' END, 'msg_' || replace(o.id::text, '-', ''), 'https://pos.example/hooks/orders',
      '{"content-type":"application/json"}'::jsonb, c.code, CASE WHEN c.code IS NULL THEN NULL ELSE 'ok' END,
      (20 + random() * 200)::int, CASE WHEN c.code IS NULL THEN 'timeout' END, o.created_at + g * interval '1 minute'
    FROM orders o
    CROSS JOIN LATERAL generate_series(1, o.webhook_attempts) g
    CROSS JOIN LATERAL (SELECT CASE WHEN random() < 0.9 THEN 200 WHEN random() < 0.6 THEN 503 WHEN random() < 0.5 THEN 400 END AS code) c`;
