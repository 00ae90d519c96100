import { type DomainErrorCode, ErrorCode, type OAuthErrorCode, STATUS_BY_CODE } from './error-codes.js';

/**
 * One item of `details`: the field it is about and the problem in words. A domain failure's items
 * add typed fields (the store and its group, the order and its statuses...).
 */
export interface ErrorDetail {
  field: string;
  problem: string;
  /** The CSV import's problems: the file's line (1 = the header), so that programs need not read `field`. */
  line?: number;
  /** The CSV import's problems about one cell: its column's name. */
  column?: string;
}

/**
 * The one error type services throw. The exception filter renders it in the
 * body shape of the route's error family (`ErrorFamily`).
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      details?: ErrorDetail[];
      status?: number;
      headers?: Record<string, string>;
      /** Overrides the OAuth error code derived from `code` (OAuth routes). */
      oauthCode?: OAuthErrorCode;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = options.status ?? STATUS_BY_CODE[code];
  }

  get details(): ErrorDetail[] | undefined {
    return this.options.details;
  }

  static validation(details: ErrorDetail[], message?: string): ApiError {
    const text = message ?? describeDetails(details);
    return new ApiError(ErrorCode.VALIDATION_FAILED, text, { details });
  }

  static badRequest(message: string, field?: string): ApiError {
    return new ApiError(ErrorCode.VALIDATION_FAILED, message, field ? { details: [{ field, problem: message }] } : {});
  }

  static notFound(message: string): ApiError {
    return new ApiError(ErrorCode.NOT_FOUND, message);
  }

  static conflict(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError(ErrorCode.CONFLICT, message, { details });
  }

  /**
   * A domain failure with its own code. Call it from the failure's factory beside its body
   * (`<feature>/dto/*-errors.dto.ts`), which ties the code to the type of its details.
   */
  static domain<Detail extends ErrorDetail>(code: DomainErrorCode, message: string, details: Detail[]): ApiError {
    return new ApiError(code, message, { details });
  }

  static unauthorized(message = 'Missing or invalid access token', oauthCode?: OAuthErrorCode): ApiError {
    return new ApiError(ErrorCode.UNAUTHORIZED, message, {
      headers: { 'www-authenticate': 'Bearer' },
      oauthCode,
    });
  }

  static forbidden(message: string): ApiError {
    return new ApiError(ErrorCode.FORBIDDEN, message);
  }

  static unavailable(message = 'The database is unavailable; try again shortly'): ApiError {
    return new ApiError(ErrorCode.SERVICE_UNAVAILABLE, message, { headers: { 'retry-after': '5' } });
  }
}

export function describeDetails(details: ErrorDetail[]): string {
  if (details.length === 0) return 'The request is invalid';
  const shown = details.slice(0, 10).map((detail) => (detail.field ? `${detail.field}: ${detail.problem}` : detail.problem));
  const more = details.length > 10 ? ` (and ${details.length - 10} more)` : '';
  return `Invalid request: ${shown.join('; ')}${more}`;
}
