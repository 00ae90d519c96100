import { ErrorCode, OAuthErrorCode } from './error-codes.js';
import type { ApiError } from './api-error.js';

/**
 * Each family of routes answers errors in its own body shape (contract §3):
 * A admin/enrichment/login, B channel configuration, C `/domain-cliente/*`,
 * D order fulfillment.
 */
export type ErrorFamily = 'A' | 'B' | 'C' | 'D';

export function errorFamilyOf(url: string): ErrorFamily {
  const path = url.split('?', 1)[0]!.toLowerCase();
  if (path.startsWith('/api/v3/channels-stores')) return 'B';
  if (path.startsWith('/api/domain-cliente/')) return 'C';
  if (path.startsWith('/api/api/order/')) return 'D';
  return 'A';
}

const OAUTH_CODE_BY_CODE: Record<ErrorCode, OAuthErrorCode> = {
  [ErrorCode.VALIDATION_FAILED]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.UNAUTHORIZED]: OAuthErrorCode.INVALID_TOKEN,
  [ErrorCode.FORBIDDEN]: OAuthErrorCode.INSUFFICIENT_SCOPE,
  [ErrorCode.NOT_FOUND]: OAuthErrorCode.NOT_FOUND,
  [ErrorCode.CONFLICT]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.FISCAL_GROUP_NOT_FOUND]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.WEBHOOK_NOT_CONFIGURED]: OAuthErrorCode.TEMPORARILY_UNAVAILABLE,
  [ErrorCode.WEBHOOK_DELIVERY_FAILED]: OAuthErrorCode.SERVER_ERROR,
  [ErrorCode.PAYLOAD_TOO_LARGE]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.ORDER_TOO_LARGE]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.HEADERS_TOO_LARGE]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.REQUEST_TIMEOUT]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.UNSUPPORTED_MEDIA_TYPE]: OAuthErrorCode.INVALID_REQUEST,
  [ErrorCode.RATE_LIMITED]: OAuthErrorCode.TOO_MANY_REQUESTS,
  [ErrorCode.SERVICE_UNAVAILABLE]: OAuthErrorCode.TEMPORARILY_UNAVAILABLE,
  [ErrorCode.INTERNAL_ERROR]: OAuthErrorCode.SERVER_ERROR,
};

export function renderErrorBody(family: ErrorFamily, error: ApiError): Record<string, unknown> {
  switch (family) {
    case 'B':
      return { statusCode: String(error.status), message: error.message };
    case 'C':
      return { error: error.options.oauthCode ?? OAUTH_CODE_BY_CODE[error.code], error_description: error.message };
    case 'D':
      // The platform's clients read one or the other (contract §3): the same sentence in both.
      return { error: error.message, message: error.message };
    case 'A':
      return error.details?.length
        ? { message: error.message, error: error.code, details: error.details }
        : { message: error.message, error: error.code };
  }
}
