import { QueryFailedError, QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { classifyError } from './to-api-error.js';

/** An error as node-postgres raises it: an Error with the SQLSTATE or the socket's code in `code`. */
const pgError = (message: string, code?: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(message), code === undefined ? {} : { code }, extra);
/** The same error as TypeORM hands it on from a statement: a QueryFailedError around the driver's error. */
const failedQuery = (driverError: Error) => new QueryFailedError('UPDATE fiscal_group SET name = $1', ['x'], driverError);

const expectUnavailable = (error: unknown) => {
  const { apiError } = classifyError(error);
  expect({ status: apiError.status, code: apiError.code, headers: apiError.options.headers }).toEqual({
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    headers: { 'retry-after': '5' },
  });
};

describe('classifyError: a database connection lost mid-request is 503 with Retry-After', () => {
  it.each([
    ['TypeORM: the query runner was released (its connection emitted an error)', new QueryRunnerAlreadyReleasedError()],
    ['TypeORM: the manager of a released query runner', new QueryRunnerProviderAlreadyReleasedError()],
  ])('%s, logged with its stack (it may also be a manager used past its transaction)', (_, error) => {
    expectUnavailable(error);
    expect(classifyError(error).unexpected).toBe(true);
  });

  it.each([
    ['pg: "Connection terminated unexpectedly"', pgError('Connection terminated unexpectedly')],
    ['pg: "Connection terminated" on a client ended under a query', pgError('Connection terminated')],
    ['pg: a client already closed', pgError('Client was closed and is not queryable')],
    ['pg-pool: the pool ended (the instance is stopping)', pgError('Cannot use a pool after calling end on the pool')],
    ['the socket reset', pgError('read ECONNRESET', 'ECONNRESET', { syscall: 'read' })],
    ['a write to a closed socket', pgError('write EPIPE', 'EPIPE', { syscall: 'write' })],
    ['the connection aborted', pgError('socket aborted', 'ECONNABORTED')],
    ['the host unreachable', pgError('connect EHOSTUNREACH', 'EHOSTUNREACH')],
    ['the network unreachable', pgError('connect ENETUNREACH', 'ENETUNREACH')],
    ['the name lookup failed for now', pgError('getaddrinfo EAI_AGAIN db', 'EAI_AGAIN')],
    ['refused connect', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED', { syscall: 'connect' })],
    ['57P01 admin_shutdown (pg_terminate_backend)', pgError('terminating connection due to administrator command', '57P01')],
    ['57P02 crash_shutdown', pgError('terminating connection because of crash of another server process', '57P02')],
    ['57P03 cannot_connect_now', pgError('the database system is starting up', '57P03')],
    ['08006 connection_failure', pgError('connection failure', '08006')],
    ['08003 connection_does_not_exist', pgError('connection does not exist', '08003')],
    ['53300 too_many_connections', pgError('sorry, too many clients already', '53300')],
  ])('%s, bare and inside a QueryFailedError', (_, error) => {
    expectUnavailable(error);
    expectUnavailable(failedQuery(error));
    expect(classifyError(error).unexpected).toBe(false);
  });

  it('reads a lost connection through a cause chain (an error wrapping the driver error)', () => {
    expectUnavailable(new Error('could not store the order', { cause: pgError('Connection terminated unexpectedly') }));
    expectUnavailable(new Error('outer', { cause: new Error('inner', { cause: new QueryRunnerAlreadyReleasedError() }) }));
  });

  it('leaves other errors alone: a missing table is 500, a duplicate key 409, a bad value 400', () => {
    expect(classifyError(failedQuery(pgError('relation "x" does not exist', '42P01'))).apiError.status).toBe(500);
    expect(classifyError(failedQuery(pgError('duplicate key', '23505'))).apiError.status).toBe(409);
    expect(classifyError(failedQuery(pgError('invalid input syntax for type uuid', '22P02'))).apiError.status).toBe(400);
    expect(classifyError(new TypeError("Cannot read properties of undefined (reading 'id')")).apiError.status).toBe(500);
  });
});
