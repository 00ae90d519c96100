import { HttpException } from '@nestjs/common';
import { ApiError } from './api-error.js';
import { ErrorCode } from './error-codes.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: ErrorCode.VALIDATION_FAILED,
  401: ErrorCode.UNAUTHORIZED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  405: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  415: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  422: ErrorCode.VALIDATION_FAILED,
  429: ErrorCode.RATE_LIMITED,
  503: ErrorCode.SERVICE_UNAVAILABLE,
};

/** PostgreSQL and driver errors that mean "the database is not reachable right now". */
const UNAVAILABLE_DB_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
]);
const UNAVAILABLE_DB_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'Connection is not established',
  'terminating connection',
  'the database system is',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];
/**
 * TypeORM releases a query runner when its connection emits an error (the backend terminated, the socket reset), and
 * every later statement of that transaction fails with one of these instead of the driver's error. A manager used
 * after its transaction ended fails alike, which is a bug: so they are 503 but logged with their stack.
 */
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);
/** How deep a chain of `cause`s is read for a lost connection. */
const MAX_CAUSES = 5;

/** Values the client sent that PostgreSQL refused: a client mistake that escaped validation. */
const CLIENT_DATA_DB_CODES = new Set(['22P02', '22P05', '22003', '22007', '22008', '22001', '22021', '2201B']);

export interface ClassifiedError {
  apiError: ApiError;
  /** True when the error is a fault of the service, not of the request: it is logged with its stack. */
  unexpected: boolean;
}

export function classifyError(error: unknown): ClassifiedError {
  if (error instanceof ApiError) return { apiError: error, unexpected: error.status >= 500 && error.code === ErrorCode.INTERNAL_ERROR };
  if (error instanceof HttpException) {
    // Nest wraps Fastify's own 4xx errors (body parsing, limits) in an HttpException with the original as cause.
    const wrapped = error.cause ? fromFastifyError(error.cause as FastifyLikeError) : undefined;
    if (wrapped) return { apiError: wrapped, unexpected: false };
    return { apiError: fromHttpException(error), unexpected: error.getStatus() >= 500 && error.getStatus() !== 503 };
  }

  const candidate = error as {
    statusCode?: unknown;
    code?: unknown;
    message?: unknown;
    name?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  const fastify = fromFastifyError(candidate);
  if (fastify) return { apiError: fastify, unexpected: false };

  const database = fromDatabaseError(candidate);
  if (database) return database;
  const lost = lostConnectionInCauses(candidate);
  if (lost) return lost;

  return { apiError: new ApiError(ErrorCode.INTERNAL_ERROR, 'An unexpected error occurred'), unexpected: true };
}

function fromHttpException(exception: HttpException): ApiError {
  const status = exception.getStatus();
  const response = exception.getResponse();
  let message: string;
  if (typeof response === 'string') message = response;
  else {
    const raw = (response as { message?: unknown }).message;
    message = Array.isArray(raw) ? raw.join('; ') : typeof raw === 'string' ? raw : exception.message;
  }
  if (status === 404 && /^Cannot (GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)/.test(message)) {
    message = `No route ${message.replace(/^Cannot /, '')}`;
  }
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? ErrorCode.INTERNAL_ERROR : ErrorCode.VALIDATION_FAILED);
  if (code === ErrorCode.INTERNAL_ERROR) message = 'An unexpected error occurred';
  return new ApiError(code, message, { status: code === ErrorCode.VALIDATION_FAILED ? 400 : status });
}

interface FastifyLikeError {
  statusCode?: unknown;
  code?: unknown;
  message?: unknown;
  name?: unknown;
}

function fromFastifyError(error: FastifyLikeError): ApiError | undefined {
  const code = typeof error.code === 'string' ? error.code : '';
  const status = typeof error.statusCode === 'number' ? error.statusCode : undefined;
  switch (code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(ErrorCode.PAYLOAD_TOO_LARGE, 'The request body is larger than the accepted limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Unsupported Content-Type: send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.badRequest('The request body is empty; send a JSON object');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return ApiError.badRequest('Content-Length does not match the body');
  }
  if (status === 400 && (error.name === 'SyntaxError' || code === 'FST_ERR_CTP_INVALID_JSON_BODY')) {
    return ApiError.badRequest('Malformed JSON body');
  }
  if (status === 400 && typeof error.message === 'string' && /prototype property/i.test(error.message)) {
    return ApiError.badRequest('The body contains a forbidden property (__proto__ or constructor.prototype)');
  }
  if (code.startsWith('FST_') && status && status >= 400 && status < 500) {
    return new ApiError(CODE_BY_STATUS[status] ?? ErrorCode.VALIDATION_FAILED, String(error.message), { status });
  }
  return undefined;
}

/** A lost connection that another error wraps (`new Error(..., { cause })`): the request still failed for it. */
function lostConnectionInCauses(error: { cause?: unknown }): ClassifiedError | undefined {
  let cause = error.cause;
  for (let depth = 0; depth < MAX_CAUSES && cause !== null && typeof cause === 'object'; depth++) {
    const found = fromDatabaseError(cause as DatabaseLikeError);
    if (found?.apiError.code === ErrorCode.SERVICE_UNAVAILABLE) return found;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

interface DatabaseLikeError {
  code?: unknown;
  message?: unknown;
  name?: unknown;
  driverError?: unknown;
}

function fromDatabaseError(error: DatabaseLikeError): ClassifiedError | undefined {
  if (typeof error.name === 'string' && RELEASED_RUNNER_ERRORS.has(error.name))
    return { apiError: ApiError.unavailable(), unexpected: true };
  const driver = (error.driverError ?? error) as { code?: unknown; message?: unknown; syscall?: unknown };
  // A failed connect (TCP refused, or the Unix socket file gone while PostgreSQL is down).
  if (driver.syscall === 'connect') return { apiError: ApiError.unavailable(), unexpected: false };
  const code = typeof driver.code === 'string' ? driver.code : typeof error.code === 'string' ? error.code : '';
  const message = typeof driver.message === 'string' ? driver.message : String(error.message ?? '');
  if (UNAVAILABLE_DB_CODES.has(code) || UNAVAILABLE_DB_MESSAGES.some((text) => message.includes(text))) {
    return { apiError: ApiError.unavailable(), unexpected: false };
  }
  // query_canceled: a statement ran past statement_timeout. The service was slow, not the request
  // wrong: 503 with a retry, and logged with its stack so the slow statement is found.
  if (code === '57014') return { apiError: ApiError.unavailable('The request took too long; try again shortly'), unexpected: true };
  if (CLIENT_DATA_DB_CODES.has(code)) {
    return { apiError: ApiError.badRequest('A value in the request is out of range or of the wrong type'), unexpected: false };
  }
  if (code === '23505') return { apiError: ApiError.conflict('The resource already exists'), unexpected: false };
  return undefined;
}
