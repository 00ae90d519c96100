import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode, OAuthErrorCode } from '../common/errors/error-codes.js';
import { parseBasicAuthorization } from './basic-credentials.js';
import { ApiClientsService } from './api-clients.service.js';
import { isScope, type Scope } from './scopes.js';
import { TokenService, type IssuedToken } from './token.service.js';
import type { LoginDto } from './dto/login.dto.js';

const INVALID_CREDENTIALS = 'Invalid client credentials';

export interface GrantedToken extends IssuedToken {
  scopes: Scope[];
  clientId: string;
  /** The client's name, for the audit log. */
  clientName: string;
}

@Injectable()
export class AuthService {
  constructor(
    private readonly clients: ApiClientsService,
    private readonly tokens: TokenService,
  ) {}

  async login(dto: LoginDto): Promise<IssuedToken> {
    const client = await this.clients.verifyCredentials(dto.client_id, dto.client_secret);
    if (!client) throw new ApiError(ErrorCode.UNAUTHORIZED, INVALID_CREDENTIALS);
    return this.tokens.issue(client.clientId, client.scopes, client.stores);
  }

  /** Client credentials from HTTP Basic (any route family); 401 in the route's shape when wrong. */
  async authenticateBasic(header: string | undefined, requiredScopes: readonly Scope[] = []): Promise<GrantedToken> {
    const credentials = parseBasicAuthorization(header);
    if (!credentials || credentials === 'malformed') {
      throw new ApiError(ErrorCode.UNAUTHORIZED, 'Client credentials are required as HTTP Basic (client_id:client_secret)', {
        headers: { 'www-authenticate': 'Basic realm="order-tax-service"' },
      });
    }
    const client = await this.clients.verifyCredentials(credentials.clientId, credentials.clientSecret);
    if (!client) {
      throw new ApiError(ErrorCode.UNAUTHORIZED, INVALID_CREDENTIALS, {
        headers: { 'www-authenticate': 'Basic realm="order-tax-service"' },
      });
    }
    const scopes = client.scopes.filter(isScope);
    const missing = requiredScopes.filter((scope) => !scopes.includes(scope));
    if (missing.length > 0) throw ApiError.forbidden(`This operation needs the scope ${missing.join(', ')}`);
    return {
      ...(await this.tokens.issue(client.clientId, scopes, client.stores)),
      scopes,
      clientId: client.clientId,
      clientName: client.name,
    };
  }

  /** OAuth 2.0 client credentials grant (RFC 6749 §4.4) with RFC 6749 §5.2 errors. */
  async grantClientCredentials(body: unknown, authorization: string | undefined): Promise<GrantedToken> {
    const form = (body ?? {}) as Record<string, unknown>;
    if (typeof form !== 'object' || Array.isArray(form))
      throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'The body must be an object');
    const grantType = form.grant_type;
    if (grantType === undefined || grantType === null || grantType === '') {
      throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'grant_type is required');
    }
    if (grantType !== 'client_credentials') {
      throw oauthError(400, OAuthErrorCode.UNSUPPORTED_GRANT_TYPE, 'Only grant_type=client_credentials is supported');
    }

    const basic = parseBasicAuthorization(authorization);
    if (basic === 'malformed') throw oauthError(401, OAuthErrorCode.INVALID_CLIENT, 'Malformed HTTP Basic credentials');
    const inBody = form.client_id !== undefined || form.client_secret !== undefined;
    if (basic && inBody) {
      throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'Send client credentials either as HTTP Basic or in the body, not both');
    }
    let clientId: string;
    let clientSecret: string;
    if (basic) {
      ({ clientId, clientSecret } = basic);
    } else {
      const id = form.client_id;
      if (id === undefined || form.client_secret === undefined) {
        throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'client_id and client_secret are required');
      }
      const idText = typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? String(id) : id;
      if (typeof idText !== 'string' || !/^\d{1,20}$/.test(idText)) {
        throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'client_id must be an integer or a numeric string');
      }
      if (typeof form.client_secret !== 'string' || form.client_secret.length === 0 || form.client_secret.length > 500) {
        throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'client_secret must be a non-empty string');
      }
      clientId = idText;
      clientSecret = form.client_secret;
    }

    const client = await this.clients.verifyCredentials(clientId, clientSecret);
    if (!client) throw oauthError(401, OAuthErrorCode.INVALID_CLIENT, 'Client authentication failed');
    const granted = client.scopes.filter(isScope);
    const scopes = this.requestedScopes(form.scope, granted);
    return {
      ...(await this.tokens.issue(client.clientId, scopes, client.stores)),
      scopes,
      clientId: client.clientId,
      clientName: client.name,
    };
  }

  private requestedScopes(requested: unknown, granted: Scope[]): Scope[] {
    if (requested === undefined || requested === null || requested === '') return granted;
    if (typeof requested !== 'string') throw oauthError(400, OAuthErrorCode.INVALID_REQUEST, 'scope must be a space-separated string');
    const names = requested.split(' ').filter(Boolean);
    const unknown = names.filter((name) => !granted.includes(name as Scope));
    if (unknown.length > 0) {
      throw new ApiError(ErrorCode.VALIDATION_FAILED, `Scope not granted to this client: ${unknown.join(', ')}`, {
        oauthCode: OAuthErrorCode.INVALID_SCOPE,
      });
    }
    return names as Scope[];
  }
}

function oauthError(status: 400 | 401, code: OAuthErrorCode, message: string): ApiError {
  return new ApiError(status === 400 ? ErrorCode.VALIDATION_FAILED : ErrorCode.UNAUTHORIZED, message, {
    status,
    oauthCode: code,
    // RFC 6749 §5.2: a 401 for client authentication carries the scheme the client may use.
    headers: status === 401 ? { 'www-authenticate': 'Basic realm="order-tax-service"' } : undefined,
  });
}
