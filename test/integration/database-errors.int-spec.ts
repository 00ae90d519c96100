import { classifyError } from '../../src/common/errors/to-api-error.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

/** What a client is told when PostgreSQL itself refuses a statement: errors raised by the real database. */
describe('database errors as API errors (integration)', () => {
  let db: IntegrationContext;

  beforeAll(async () => {
    db = await bootIntegration({ imports: [] });
  });
  afterAll(() => db.close());

  /** The error the statement raises, classified as the exception filter does. */
  async function classified(statements: string[]) {
    const runner = db.dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      for (const statement of statements) await runner.query(statement);
      throw new Error('the statements raised nothing');
    } catch (error) {
      return classifyError(error);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it('answers a statement past statement_timeout with 503 and a retry, logged as the service fault it is', async () => {
    const { apiError, unexpected } = await classified([`SET LOCAL statement_timeout = '50ms'`, 'SELECT pg_sleep(5)']);
    expect(apiError.status).toBe(503);
    expect(apiError.code).toBe('SERVICE_UNAVAILABLE');
    expect(apiError.options.headers).toEqual({ 'retry-after': '5' });
    expect(unexpected).toBe(true);
  });

  it('answers a value PostgreSQL cannot read with 400, and a duplicate key with 409', async () => {
    expect((await classified([`SELECT 'not-a-uuid'::uuid`])).apiError.status).toBe(400);
    const duplicate = await classified(['CREATE TEMP TABLE t (k int PRIMARY KEY)', 'INSERT INTO t VALUES (1), (1)']);
    expect(duplicate.apiError.status).toBe(409);
  });

  it('leaves any other database error a 500', async () => {
    const { apiError, unexpected } = await classified(['SELECT * FROM no_such_table']);
    expect(apiError.status).toBe(500);
    expect(unexpected).toBe(true);
  });
});
