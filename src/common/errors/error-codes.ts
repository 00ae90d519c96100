/** Machine-readable codes of admin API error bodies (`error` field) that carry no typed details. */
export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  FISCAL_GROUP_NOT_FOUND: 'FISCAL_GROUP_NOT_FOUND',
  WEBHOOK_NOT_CONFIGURED: 'WEBHOOK_NOT_CONFIGURED',
  WEBHOOK_DELIVERY_FAILED: 'WEBHOOK_DELIVERY_FAILED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  ORDER_TOO_LARGE: 'ORDER_TOO_LARGE',
  NOT_AN_ORDER: 'NOT_AN_ORDER',
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  RATE_LIMITED: 'RATE_LIMITED',
  CSRF_TOKEN_INVALID: 'CSRF_TOKEN_INVALID',
  ACCESS_REMOVED: 'ACCESS_REMOVED',
  LINK_NOT_FOUND: 'LINK_NOT_FOUND',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  DEADLINE_EXCEEDED: 'DEADLINE_EXCEEDED',
  INTERNAL_ERROR: 'INTERNAL_ERROR',
} as const;

/**
 * Domain failures with their own code and typed `details` (docs/errors.md). Each is thrown by one
 * factory beside the body it renders (`<feature>/dto/*-errors.dto.ts`); the operations that
 * answer them declare them (admin API and point-of-sale routes).
 */
export const DomainErrorCode = {
  STORE_IN_ANOTHER_GROUP: 'STORE_IN_ANOTHER_GROUP',
  EXTERNAL_ID_IN_USE: 'EXTERNAL_ID_IN_USE',
  PRODUCT_ID_EXISTS: 'PRODUCT_ID_EXISTS',
  EXTERNAL_PRODUCT_ID_IN_USE: 'EXTERNAL_PRODUCT_ID_IN_USE',
  ORDER_NOT_ENRICHED: 'ORDER_NOT_ENRICHED',
  ORDER_STORE_CHANGED: 'ORDER_STORE_CHANGED',
  ORDER_CLOSED: 'ORDER_CLOSED',
  ILLEGAL_STATUS_TRANSITION: 'ILLEGAL_STATUS_TRANSITION',
  NOT_A_PICKUP_ORDER: 'NOT_A_PICKUP_ORDER',
  ORDER_IN_FINAL_STATUS: 'ORDER_IN_FINAL_STATUS',
  NOT_THE_ORDER_STORE: 'NOT_THE_ORDER_STORE',
  STORE_WITHOUT_FISCAL_GROUP: 'STORE_WITHOUT_FISCAL_GROUP',
  AMBIGUOUS_STORE_CODE: 'AMBIGUOUS_STORE_CODE',
  UNKNOWN_STORE: 'UNKNOWN_STORE',
  STORE_NOT_ALLOWED: 'STORE_NOT_ALLOWED',
  EMAIL_IN_USE: 'EMAIL_IN_USE',
  PASSWORD_REJECTED: 'PASSWORD_REJECTED',
  LAST_ADMIN: 'LAST_ADMIN',
  REVISION_IN_USE: 'REVISION_IN_USE',
  REVISION_IN_FORCE: 'REVISION_IN_FORCE',
  NFE_NOT_ISSUABLE: 'NFE_NOT_ISSUABLE',
} as const;
export type DomainErrorCode = (typeof DomainErrorCode)[keyof typeof DomainErrorCode];
export const DOMAIN_ERROR_CODES = Object.values(DomainErrorCode);

/**
 * Domain codes of the point-of-sale routes. Their body keeps the sentence in `error` and
 * `message` (what the platform's clients read) and adds the code as `code`, with `details`.
 */
export const POINT_OF_SALE_DOMAIN_CODES: readonly DomainErrorCode[] = [
  DomainErrorCode.ILLEGAL_STATUS_TRANSITION,
  DomainErrorCode.NOT_A_PICKUP_ORDER,
  DomainErrorCode.ORDER_IN_FINAL_STATUS,
  DomainErrorCode.NOT_THE_ORDER_STORE,
  DomainErrorCode.STORE_WITHOUT_FISCAL_GROUP,
  DomainErrorCode.AMBIGUOUS_STORE_CODE,
  DomainErrorCode.UNKNOWN_STORE,
];

export function isDomainErrorCode(code: string): code is DomainErrorCode {
  return (DOMAIN_ERROR_CODES as readonly string[]).includes(code);
}

export type GenericErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
/** The codes without typed details: the `error` of the generic admin-API error body. */
export const GENERIC_ERROR_CODES = Object.values(ErrorCode);

export type ErrorCode = GenericErrorCode | DomainErrorCode;
/** Every code an admin API error body can carry. */
export const ERROR_CODES: readonly ErrorCode[] = [...GENERIC_ERROR_CODES, ...DOMAIN_ERROR_CODES];

/** RFC 6749 §5.2 / RFC 6750 §3.1 codes used by the OAuth routes' error bodies. */
export const OAuthErrorCode = {
  INVALID_REQUEST: 'invalid_request',
  INVALID_CLIENT: 'invalid_client',
  UNSUPPORTED_GRANT_TYPE: 'unsupported_grant_type',
  INVALID_SCOPE: 'invalid_scope',
  INVALID_TOKEN: 'invalid_token',
  INSUFFICIENT_SCOPE: 'insufficient_scope',
  NOT_FOUND: 'not_found',
  TOO_MANY_REQUESTS: 'too_many_requests',
  TEMPORARILY_UNAVAILABLE: 'temporarily_unavailable',
  SERVER_ERROR: 'server_error',
} as const;
export type OAuthErrorCode = (typeof OAuthErrorCode)[keyof typeof OAuthErrorCode];
export const OAUTH_ERROR_CODES = Object.values(OAuthErrorCode);

export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  FISCAL_GROUP_NOT_FOUND: 422,
  WEBHOOK_NOT_CONFIGURED: 503,
  WEBHOOK_DELIVERY_FAILED: 502,
  PAYLOAD_TOO_LARGE: 413,
  ORDER_TOO_LARGE: 422,
  NOT_AN_ORDER: 422,
  HEADERS_TOO_LARGE: 431,
  REQUEST_TIMEOUT: 408,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  CSRF_TOKEN_INVALID: 403,
  ACCESS_REMOVED: 401,
  LINK_NOT_FOUND: 404,
  SERVICE_UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 503,
  INTERNAL_ERROR: 500,
  STORE_IN_ANOTHER_GROUP: 409,
  EXTERNAL_ID_IN_USE: 409,
  PRODUCT_ID_EXISTS: 409,
  EXTERNAL_PRODUCT_ID_IN_USE: 409,
  ORDER_NOT_ENRICHED: 409,
  ORDER_STORE_CHANGED: 409,
  ORDER_CLOSED: 409,
  ILLEGAL_STATUS_TRANSITION: 409,
  NOT_A_PICKUP_ORDER: 409,
  ORDER_IN_FINAL_STATUS: 409,
  NOT_THE_ORDER_STORE: 409,
  STORE_WITHOUT_FISCAL_GROUP: 409,
  AMBIGUOUS_STORE_CODE: 409,
  UNKNOWN_STORE: 409,
  STORE_NOT_ALLOWED: 403,
  EMAIL_IN_USE: 409,
  PASSWORD_REJECTED: 400,
  LAST_ADMIN: 409,
  REVISION_IN_USE: 409,
  REVISION_IN_FORCE: 409,
  NFE_NOT_ISSUABLE: 422,
};
