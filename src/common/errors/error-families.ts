import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { ApiError } from './api-error.js';
import { type ErrorCode, isDomainErrorCode, OAuthErrorCode, STATUS_BY_CODE } from './error-codes.js';

/**
 * Each family of routes answers errors in its own body shape, fixed by the platform's published interface
 * (docs/errors.md). A controller says its family with `@ErrorBodies(ErrorFamily.X)` above `@Controller`.
 */
export const ErrorFamily = {
  /** Login, enrichment and admin routes: `{ message, error, details? }`. */
  AdminApi: 'admin-api',
  /** The channel configuration, `/v3/channels-stores`: `{ statusCode, message }`. */
  ChannelConfiguration: 'channel-configuration',
  /** The OAuth routes, `/domain-cliente/*`: `{ error, error_description }` with an OAuth code. */
  OAuth: 'oauth',
  /**
   * The point-of-sale routes, `/api/order/*`: `{ error, message }`, the same sentence in both;
   * a domain failure adds `code` and `details`.
   */
  PointOfSale: 'point-of-sale',
} as const;
export type ErrorFamily = (typeof ErrorFamily)[keyof typeof ErrorFamily];
export const ERROR_FAMILIES = Object.values(ErrorFamily);

/** The Nest metadata key `@ErrorBodies` writes on a controller class. */
export const ERROR_FAMILY_METADATA = 'http:errorFamily';

/** The global route prefix (app.factory.ts): controller paths are below it. */
export const GLOBAL_PREFIX = 'api';

function trimSlashes(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/**
 * The path as the router reads it: percent-escapes decoded, except those of reserved characters
 * (`%2F` stays inside its segment), as `decodeURI` does; a malformed escape keeps the raw path.
 */
function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/**
 * Which family answers a URL, read from the controllers' `@ErrorBodies` metadata when the app is
 * built: the family of the controller whose path is the longest whole-segment prefix of the URL,
 * so that a URL no route matches (a 404, a 431 before routing) is answered like its neighbours;
 * the admin API when none.
 */
export class ErrorFamilyRoutes {
  private constructor(private readonly byPath: ReadonlyMap<string, ErrorFamily>) {}

  static of(controllers: Iterable<object>): ErrorFamilyRoutes {
    const byPath = new Map<string, ErrorFamily>();
    for (const controller of controllers) {
      const family = Reflect.getMetadata(ERROR_FAMILY_METADATA, controller) as ErrorFamily | undefined;
      const paths = Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined;
      if (family === undefined || paths === undefined) continue;
      for (const each of Array.isArray(paths) ? paths : [paths]) {
        const path = trimSlashes(each).toLowerCase();
        const known = byPath.get(path);
        if (known !== undefined && known !== family) {
          throw new Error(`Controllers at "${path}" declare two error families (${known} and ${family})`);
        }
        if (path !== '') byPath.set(path, family);
      }
    }
    return new ErrorFamilyRoutes(byPath);
  }

  /**
   * The family of a request: its matched route's when the router found one (the router decodes the
   * path, so the raw URL may spell the route differently), else its URL's.
   */
  familyOfRequest(request: { url: string; routeOptions?: { url?: string } }): ErrorFamily {
    return this.familyOf(request.routeOptions?.url ?? request.url);
  }

  familyOf(url: string): ErrorFamily {
    let path = trimSlashes(decodedPath(url.split('?', 1)[0]!).toLowerCase());
    if (path === GLOBAL_PREFIX || path.startsWith(`${GLOBAL_PREFIX}/`)) path = path.slice(GLOBAL_PREFIX.length + 1);
    for (let prefix = path; ; prefix = prefix.slice(0, Math.max(prefix.lastIndexOf('/'), 0))) {
      const family = this.byPath.get(prefix);
      if (family) return family;
      if (prefix === '') return ErrorFamily.AdminApi;
    }
  }
}

/** The OAuth code of an error on the OAuth routes, when it does not say its own: by its HTTP status. */
const OAUTH_CODE_BY_STATUS: Record<number, OAuthErrorCode> = {
  401: OAuthErrorCode.INVALID_TOKEN,
  403: OAuthErrorCode.INSUFFICIENT_SCOPE,
  404: OAuthErrorCode.NOT_FOUND,
  429: OAuthErrorCode.TOO_MANY_REQUESTS,
  500: OAuthErrorCode.SERVER_ERROR,
  502: OAuthErrorCode.SERVER_ERROR,
  503: OAuthErrorCode.TEMPORARILY_UNAVAILABLE,
};

function oauthCodeOf(code: ErrorCode): OAuthErrorCode {
  return OAUTH_CODE_BY_STATUS[STATUS_BY_CODE[code]] ?? OAuthErrorCode.INVALID_REQUEST;
}

export function renderErrorBody(family: ErrorFamily, error: ApiError): Record<string, unknown> {
  switch (family) {
    case ErrorFamily.ChannelConfiguration:
      return { statusCode: String(error.status), message: error.message };
    case ErrorFamily.OAuth:
      return { error: error.options.oauthCode ?? oauthCodeOf(error.code), error_description: error.message };
    case ErrorFamily.PointOfSale:
      // The platform's clients read one or the other: the same sentence in both. Only a domain
      // failure adds its code and details (fields the published shape leaves open); the other
      // failures keep the published body as it is.
      return isDomainErrorCode(error.code)
        ? { error: error.message, message: error.message, code: error.code, details: error.details ?? [] }
        : { error: error.message, message: error.message };
    case ErrorFamily.AdminApi:
      return error.details?.length
        ? { message: error.message, error: error.code, details: error.details }
        : { message: error.message, error: error.code };
  }
}
