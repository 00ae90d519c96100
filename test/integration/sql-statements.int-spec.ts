import { sql, type SqlStatement } from '../../src/database/sql-runner.js';
import {
  recordAttemptsStatement,
  takeDueOutboxStatement,
  whileCurrentMessageStatement,
  recordAttemptStatement,
} from '../../src/orders/order-forwarding.repository.js';
import {
  orderCountStatement,
  orderExportStatement,
  orderPageStatement,
  paymentsStatements,
} from '../../src/orders/order-reads.repository.js';
import { upsertBatchStatement, upsertWithFollowUpStatement } from '../../src/orders/orders.repository.js';
import { attemptLog, attemptLogBatch, outboxJob, takenOutboxJob } from '../../src/webhooks/webhook-deliveries.repository.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';
import { describeColumns, exportedStatements, sourceFiles, sqlCallsIn } from '../support/sql-columns.js';

/** Statements built per call inside a function (their text depends on an argument), checked by the cases below. */
const BUILT_PER_CALL: Record<string, number> = { 'src/orders/order-forwarding.repository.ts': 4, 'src/orders/orders.repository.ts': 2 };

const sorted = (columns: readonly string[]) => [...columns].sort();

/**
 * Every hand-written statement declares its row type and, beside it, its columns (`sql<Row>(name,
 * text, { column: true, ... })`, the compiler holding the list to the row type's keys). Here each
 * statement runs against the migrated database and the columns PostgreSQL answers must be that list.
 */
describe('hand-written SQL statements answer the columns of their row type (integration)', () => {
  let db: IntegrationContext;
  const files = sourceFiles().filter((file) => file !== 'src/database/sql-runner.ts' && sqlCallsIn(file) > 0);

  beforeAll(async () => {
    db = await bootIntegration({ imports: [] });
  });
  afterAll(async () => {
    await db?.close();
  });

  const expectColumns = async (statement: SqlStatement<object>, values?: unknown[]) => {
    const { columns } = await describeColumns(db.dataSource, statement, values);
    expect({ statement: statement.name, columns: sorted(columns) }).toEqual({
      statement: statement.name,
      columns: sorted(statement.columns),
    });
  };

  it('finds the statements (the checks below can fail)', async () => {
    expect(files.length).toBeGreaterThan(8);
    const wrong = sql<{ a: number }>('wrong-columns', 'SELECT 1 AS b', { a: true });
    expect((await describeColumns(db.dataSource, wrong)).columns).toEqual(['b']);
    const write = sql('a-write', 'UPDATE orders SET status = status WHERE id = $1');
    expect(await describeColumns(db.dataSource, write)).toEqual({ columns: [], error: undefined });
    await expect(describeColumns(db.dataSource, sql('broken', 'SELECT nope FROM orders'))).rejects.toThrow(/nope/);
  });

  it('every sql(...) call of src/ is an exported statement (so that this test sees it)', async () => {
    const missing: string[] = [];
    for (const file of files) {
      const exported = (await exportedStatements(file)).size + (BUILT_PER_CALL[file] ?? 0);
      if (exported !== sqlCallsIn(file)) missing.push(`${file}: ${sqlCallsIn(file)} sql() calls, ${exported} exported or built per call`);
    }
    expect(missing).toEqual([]);
  });

  it('every named statement answers its declared columns', async () => {
    const names = new Set<string>();
    for (const file of files) {
      for (const statement of (await exportedStatements(file)).values()) {
        expect(names.has(statement.name!)).toBe(false);
        names.add(statement.name!);
        await expectColumns(statement);
      }
    }
    expect(names.size).toBeGreaterThan(30);
  });

  it('the order list page and both count strategies', async () => {
    const everyFilter = {
      storeId: 's',
      source: 'x',
      status: 'ENRICHED',
      orderId: 'o',
      createdFromUs: 1_700_000_000_000_000n,
      createdToUs: 1_700_500_000_000_000n,
      minWebhookAttempts: 0,
      maxWebhookAttempts: 3,
    };
    const page = orderPageStatement(everyFilter, 2, 20);
    await expectColumns(page.statement, page.values);
    const byOrders = orderCountStatement(everyFilter);
    await expectColumns(byOrders.statement, byOrders.values);
    const byCounters = orderCountStatement({ source: 'x', createdFromUs: 1_700_000_000_000_001n, createdToUs: 1_700_500_000_000_000n });
    await expectColumns(byCounters.statement, byCounters.values);
  });

  it('the order export, first batch and after a cursor', async () => {
    const first = orderExportStatement({ storeId: 's1', status: 'DELIVERED', createdFromUs: 1_700_000_000_000_001n }, undefined, 10);
    await expectColumns(first.statement, first.values);
    const next = orderExportStatement({}, { createdAt: '2026-11-15T12:00:00.000000Z', id: '00000000-0000-4000-8000-000000000000' }, 10);
    await expectColumns(next.statement, next.values);
  });

  it('the payments report', async () => {
    const built = paymentsStatements(
      { startUs: 0n, endUs: 1_700_000_000_000_000n, endExclusive: true, properties: [['country', 'BR']], stores: ['s1'] },
      1,
      10,
    );
    await expectColumns(built.count.statement, built.count.values);
    await expectColumns(built.page.statement, built.page.values);
  });

  it('a forward attempt with the delivery log', async () => {
    const built = recordAttemptStatement(
      {
        orderDbId: '00000000-0000-4000-8000-000000000000',
        lastResponse: { statusCode: 200, body: '', durationMs: 1, error: null, attemptedAt: new Date().toISOString() },
        status: 'FORWARDED',
        webhookId: 'w',
        onlyIfPayload: null,
      },
      { clientId: 'c', via: 'v' },
      attemptLog({
        orderDbId: '00000000-0000-4000-8000-000000000000',
        trigger: 'forward',
        webhookId: 'w',
        url: 'http://x',
        requestHeaders: {},
        lastResponse: { statusCode: 200, body: '', durationMs: 1, error: null, attemptedAt: new Date().toISOString() },
        status: 'FORWARDED',
        onlyIfPayload: null,
        cancelPendingRetry: true,
      }),
    );
    await expectColumns(built.statement, built.values);
  });

  it("a forward's upsert with its retry job (the outbox)", async () => {
    const enriched = JSON.stringify({
      orderId: 'sql-outbox',
      taxSummary: { fiscalDocument: { revision: 1, taxInstant: new Date().toISOString() } },
    });
    const built = upsertWithFollowUpStatement(
      ['sql-outbox', 'ENRICHED', '{}', enriched, null, null, null, 'c', 'v', null, 'msg_x', '', 1000],
      outboxJob(1000),
    );
    await expectColumns(built.statement, built.values);
  });

  it("a retry job written while its message is the order's current one", async () => {
    const built = whileCurrentMessageStatement('00000000-0000-4000-8000-000000000000', 'msg_x', outboxJob(1000));
    await expectColumns(built.statement, built.values);
  });

  it('due forward outboxes taken as retry jobs', async () => {
    const built = takeDueOutboxStatement(10, takenOutboxJob);
    await expectColumns(built.statement, built.values);
  });

  it('taxed upserts in one batch, alone and with their retry jobs', async () => {
    const one = (orderId: string) => [
      orderId,
      'ENRICHED',
      '{}',
      JSON.stringify({ orderId, taxSummary: { fiscalDocument: { revision: 1, taxInstant: new Date().toISOString() } } }),
      null,
      null,
      null,
      'c',
      'v',
      null,
      `msg_${orderId}`,
    ];
    const plain = upsertBatchStatement([one('sql-batch-1'), one('sql-batch-2')]);
    await expectColumns(plain.statement, plain.values);
    const withJobs = upsertBatchStatement([one('sql-batch-3'), one('sql-batch-4')], outboxJob(1000));
    await expectColumns(withJobs.statement, withJobs.values);
  });

  it('forward attempts in one batch, with their delivery log', async () => {
    const lastResponse = { statusCode: 200, body: '', durationMs: 1, error: null, attemptedAt: new Date().toISOString() };
    const record = {
      orderDbId: '00000000-0000-4000-8000-000000000000',
      trigger: 'forward' as const,
      webhookId: 'w',
      url: 'http://x',
      requestHeaders: {},
      lastResponse,
      status: 'FORWARDED' as const,
      onlyIfPayload: null,
      cancelPendingRetry: true,
    };
    const built = recordAttemptsStatement(
      [
        {
          attempt: { orderDbId: record.orderDbId, lastResponse, status: 'FORWARDED', webhookId: 'w', onlyIfPayload: null },
          actor: { clientId: 'c', via: 'v' },
        },
      ],
      attemptLogBatch([record]),
    );
    await expectColumns(built.statement, built.values);
  });
});
