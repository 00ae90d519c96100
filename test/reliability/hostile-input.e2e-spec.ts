import fc from 'fast-check';
import {
  documentedOperations,
  expectErrorShape,
  loadCommittedOpenApi,
  type DocumentedOperation,
  type OpenApiDocument,
} from '../support/openapi-routes.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Every route of the OpenAPI document gets property-based hostile requests: wrong
 * types, missing and extra fields, huge strings, deep nesting, unicode, nulls, numbers
 * as strings, SQL and JSON-injection text, prototype-pollution keys. Every answer must
 * be below 500, errors must have the route family's shape, and a rejected request must
 * leave the database as it was.
 */

const RUNS = Number(process.env.HOSTILE_RUNS ?? 25);
const SEED = Number(process.env.HOSTILE_SEED ?? 20261121);

const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE orders; --",
  '" OR ""="',
  '{"$ne": null}',
  '$where: 1',
  '__proto__',
  'constructor',
  'prototype',
  '\u0000',
  '../../../etc/passwd',
  '%',
  '_',
  '\\',
  '%_\\%',
  '<script>alert(1)</script>',
  '${7*7}',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '9007199254740993',
  '00000000-0000-0000-0000-000000000000',
  'ＳＰ',
  '🍔🍟',
  'ç,á;ã',
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: fc.string({ minLength: 2000, maxLength: 6000 }) },
);

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''),
  fc.string({ maxLength: 12 }),
);

const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(hostileKey, tie('value'), { maxKeys: 5 }),
  ),
}));

/** A documented example body (when the route has one) with one property replaced, removed, or one added. */
function mutatedExample(example: unknown): fc.Arbitrary<unknown> {
  if (typeof example !== 'object' || example === null || Array.isArray(example)) return hostileValue;
  const keys = Object.keys(example);
  return fc.oneof(
    fc.record({ key: fc.constantFrom(...keys), value: hostileValue }).map(({ key, value }) => ({ ...example, [key]: value })),
    fc.constantFrom(...keys).map((key) => Object.fromEntries(Object.entries(example).filter(([name]) => name !== key))),
    fc.record({ key: hostileKey, value: hostileValue }).map(({ key, value }) => ({ ...example, [key]: value })),
  );
}

function exampleBody(route: DocumentedOperation, document: OpenApiDocument): unknown {
  const content = route.operation.requestBody?.content?.['application/json'];
  if (!content) return undefined;
  const first = content.example ?? Object.values(content.examples ?? {})[0]?.value;
  if (first !== undefined) return first;
  const ref = content.schema?.$ref;
  const schema = ref ? document.components.schemas[ref.split('/').pop()!] : content.schema;
  if (!schema?.properties) return undefined;
  return Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, property.example ?? null]));
}

/** A raw body: JSON of a hostile value, deep nesting, broken JSON, or duplicate keys. */
const rawBody = (example: unknown) =>
  fc.oneof(
    { weight: 4, arbitrary: mutatedExample(example).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 3, arbitrary: hostileValue.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 5000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{',
        '{"a":}',
        '[1,',
        'nul',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '{"a":1,"a":2}',
      ),
    },
  );

const pathValue = fc.oneof(
  hostileString.filter((text) => text.length > 0 && text.length < 300),
  fc.uuid(),
);
const queryArb = fc.dictionary(
  fc.oneof(
    hostileKey.filter((key) => key.length > 0),
    fc.constantFrom('page', 'pageSize', 'storeId', 'createdFrom', 'dryRun', 'startDate'),
  ),
  hostileString,
  { maxKeys: 4 },
);

const TABLES = [
  'api_client',
  'fiscal_group',
  'fiscal_group_store',
  'product_fiscal_category',
  'orders',
  'order_status_history',
  'channel_store',
  'sales_channel',
  'order_tracking',
  'order_transfer',
  'order_dispatch',
  'webhook_delivery',
  'webhook_retry_job',
];

describe('hostile input on every documented route (reliability)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let token: string;
  let basic: string;
  let tables: string[];
  const document = loadCommittedOpenApi();
  const operations = documentedOperations(document);

  beforeAll(async () => {
    // A working order webhook, so that hostile bodies reach forwarding too (without one it answers 503 by design).
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '1000000', SEED_DEMO_DATA: 'true', ORDER_WEBHOOK_URL: receiver.url });
    token = await t.adminToken();
    basic = `Basic ${Buffer.from(`${BOOTSTRAP_ID}:${BOOTSTRAP_SECRET}`).toString('base64')}`;
    // Raw SQL on purpose: the fingerprint is of every table's rows as PostgreSQL holds them, whatever entities exist.
    const present: Array<{ name: string }> = await t.dataSource.query(
      `SELECT name FROM unnest($1::text[]) AS name WHERE to_regclass('public.' || name) IS NOT NULL`,
      [TABLES],
    );
    tables = present.map((row) => row.name);
    expect(tables.length).toBeGreaterThan(8);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  /** Rows of every table, hashed: equal before and after a request that was refused. */
  async function fingerprint(): Promise<string> {
    const parts = await Promise.all(
      tables.map(
        async (table) =>
          (
            await t.dataSource.query<Array<{ h: string }>>(
              `SELECT md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM ${table} x`,
            )
          )[0]!.h,
      ),
    );
    return parts.join(',');
  }

  it('has routes to attack', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  for (const route of operations) {
    const label = `${route.method} ${route.template}`;
    it(`${label}: never a 5xx, errors in the family shape, a refused request changes nothing`, async () => {
      const example = exampleBody(route, document);
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(route.method);
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            params: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
            query: queryArb,
            body: rawBody(example),
            withQuery: fc.boolean(),
          }),
          async (input) => {
            let index = 0;
            const path = route.template
              .replace(/^\/api/, '')
              .replace(/\{[^}]+\}/g, () => encodeURIComponent(input.params[index++ % input.params.length]!));
            const headers: Record<string, string> = {};
            if (route.template.startsWith('/api/v3/channels-stores') && route.method === 'POST') headers.authorization = basic;
            if (hasBody) headers['content-type'] = 'application/json';
            const before = await fingerprint();
            const response = await t.http.request(route.method, path, undefined, {
              token: headers.authorization ? undefined : token,
              headers,
              raw: hasBody ? input.body : undefined,
              query: input.withQuery ? input.query : undefined,
            });
            if (response.status >= 500) {
              failures.push(`${label} answered ${response.status}: ${response.text.slice(0, 200)} for ${path} ${input.body.slice(0, 200)}`);
              return false;
            }
            if (response.status >= 400) {
              expectErrorShape(route.family, response.body);
              // A 422 of enrichment stores the order on purpose (ENRICHMENT_FAILED); every other refusal changes nothing.
              if (response.status !== 422) expect(await fingerprint()).toBe(before);
            }
            return true;
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      expect(failures).toEqual([]);
    });
  }

  it('every route with an example body: each injection string inside an otherwise valid body (deterministic sweep)', async () => {
    const failures: string[] = [];
    for (const route of operations.filter((candidate) => ['POST', 'PUT', 'PATCH'].includes(candidate.method))) {
      const example = exampleBody(route, document);
      if (typeof example !== 'object' || example === null || Array.isArray(example)) continue;
      const stringFields = Object.entries(example)
        .filter(([, value]) => typeof value === 'string')
        .map(([key]) => key);
      const bodies = INJECTIONS.flatMap((text) => [
        { ...example, injected: text },
        ...stringFields.map((key) => ({ ...example, [key]: text })),
      ]);
      const path = route.template.replace(/^\/api/, '').replace(/\{[^}]+\}/g, 'sample');
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (route.template.startsWith('/api/v3/channels-stores')) headers.authorization = basic;
      for (const body of bodies) {
        const response = await t.http.request(route.method, path, undefined, {
          token: headers.authorization ? undefined : token,
          headers,
          raw: JSON.stringify(body),
        });
        if (response.status >= 500)
          failures.push(`${route.method} ${route.template} answered ${response.status} for ${JSON.stringify(body).slice(0, 160)}`);
        else if (response.status >= 400) expectErrorShape(route.family, response.body);
      }
    }
    expect(failures).toEqual([]);
    // Every documented write route, one request per injection string and field, one after the other: the sweep grows
    // with the API (a whole channel configuration replaced per body), beyond the suite's 60 s per test.
  }, 300_000);
});
