import { ErrorCode, OAuthErrorCode } from './error-codes.js';
import type { ApiError } from './api-error.js';

/**
 * Each family of routes answers errors in its own body shape (docs/errors.md):
 * A admin/enrichment/login, B channel configuration, C `/domain-cliente/*`,
 * D order fulfillment.
 */
export type ErrorFamily = 'A' | 'B' | 'C' | 'D';

/** The global route prefix (app.factory.ts): controller paths are below it. */
export const GLOBAL_PREFIX = 'api';

/** Controller path (without the global prefix, no slashes at the ends) → its family, from `@ErrorFamily`. */
const FAMILY_BY_PATH = new Map<string, ErrorFamily>();

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** Called by `@ErrorFamily` for each controller: the one place a route's family is said. */
export function registerErrorFamily(controllerPath: string, family: ErrorFamily): void {
  const path = trimSlashes(controllerPath).toLowerCase();
  const known = FAMILY_BY_PATH.get(path);
  if (known !== undefined && known !== family) {
    throw new Error(`Controllers at "${path}" declare two error families (${known} and ${family})`);
  }
  if (path !== '') FAMILY_BY_PATH.set(path, family);
}

/**
 * The family of a request, also one no route matched (a 404, a 431 before routing): the family
 * declared by the controller whose path is the longest whole-segment prefix of the URL; A when none.
 */
export function errorFamilyOf(url: string): ErrorFamily {
  let path = trimSlashes(url.split('?', 1)[0]!.toLowerCase());
  if (path === GLOBAL_PREFIX || path.startsWith(`${GLOBAL_PREFIX}/`)) path = path.slice(GLOBAL_PREFIX.length + 1);
  for (let prefix = path; ; prefix = prefix.slice(0, Math.max(prefix.lastIndexOf('/'), 0))) {
    const family = FAMILY_BY_PATH.get(prefix);
    if (family) return family;
    if (prefix === '') return 'A';
  }
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
      // The platform's clients read one or the other: the same sentence in both.
      return { error: error.message, message: error.message };
    case 'A':
      return error.details?.length
        ? { message: error.message, error: error.code, details: error.details }
        : { message: error.message, error: error.code };
  }
}
