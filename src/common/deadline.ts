import { ApiError } from './errors/api-error.js';
import { ErrorCode } from './errors/error-codes.js';

/** PostgreSQL's query_canceled: a statement ran past its `statement_timeout`. */
const QUERY_CANCELED = '57014';

/**
 * The time a request may take, counted from its construction. A long request checks it between
 * steps (`check()`) and bounds each database statement by what is left (`statementTimeoutMs()`), so
 * that past the deadline the work itself stops, not only the answer.
 */
export class Deadline {
  private readonly endsAt: number;

  constructor(readonly ms: number) {
    this.endsAt = performance.now() + ms;
  }

  remainingMs(): number {
    return this.endsAt - performance.now();
  }

  expired(): boolean {
    return this.remainingMs() <= 0;
  }

  /** Throws 503 `DEADLINE_EXCEEDED` once the deadline has passed. */
  check(): void {
    if (this.expired()) throw this.exceeded();
  }

  /** What is left, as a `statement_timeout` (whole milliseconds, never 0: 0 would turn the timeout off). Checks first. */
  statementTimeoutMs(): number {
    this.check();
    return Math.max(1, Math.ceil(this.remainingMs()));
  }

  /** The error to answer when `error` is the deadline's doing: a statement it cancelled, or its own check. */
  explain(error: unknown): unknown {
    if (this.expired() && postgresCode(error) === QUERY_CANCELED) return this.exceeded();
    return error;
  }

  exceeded(): ApiError {
    return new ApiError(ErrorCode.DEADLINE_EXCEEDED, `The request ran past its ${this.ms} ms deadline and was stopped`, {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(this.ms / 1000))) },
    });
  }
}

function postgresCode(error: unknown): unknown {
  const candidate = error as { code?: unknown; driverError?: { code?: unknown } } | null;
  return candidate?.driverError?.code ?? candidate?.code;
}
