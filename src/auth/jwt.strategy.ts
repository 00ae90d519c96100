import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ClientsService } from './clients.service.js';
import type { ClientPrincipal } from './principal.js';
import { isScope } from './scopes.js';
import { BEARER_REQUIRED, lifetimeProblem, TOKEN_EXPIRED, TOKEN_INVALID, TokenService, type AccessTokenClaims } from './token.service.js';

/** `<scheme> <credentials>` of an Authorization header, as passport-jwt's bearer extractor reads it. */
const AUTHORIZATION = /(\S+)\s+(\S+)/;

/**
 * A client's bearer token to its principal, on every request that carries one: the token's
 * signature, algorithm (HS256 only: `alg: none` and key-confusion tokens are refused), issuer,
 * audience and expiry (TokenService.verify), its lifetime, and the client's current state.
 */
@Injectable()
export class JwtStrategy {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly tokens: TokenService,
    private readonly clients: ClientsService,
  ) {
    this.ttlSeconds = config.jwtTtlSeconds;
  }

  /** The principal of the request's bearer token; a 401 when there is none or it is refused. */
  async authenticate(authorization: string | undefined): Promise<ClientPrincipal> {
    const parts = typeof authorization === 'string' ? AUTHORIZATION.exec(authorization) : null;
    if (!parts || parts[1]!.toLowerCase() !== 'bearer') throw ApiError.unauthorized(BEARER_REQUIRED);
    let claims: AccessTokenClaims;
    try {
      claims = this.tokens.verify(parts[2]!);
    } catch (error) {
      throw ApiError.unauthorized((error as { name?: string }).name === 'TokenExpiredError' ? TOKEN_EXPIRED : TOKEN_INVALID);
    }
    return this.validate(claims);
  }

  async validate(claims: AccessTokenClaims): Promise<ClientPrincipal> {
    if (typeof claims.sub !== 'string' || typeof claims.scope !== 'string') {
      throw ApiError.unauthorized('The access token is malformed');
    }
    const lifetime = lifetimeProblem(claims, this.ttlSeconds);
    if (lifetime) throw ApiError.unauthorized(lifetime);
    const client = await this.clients.current(claims.sub);
    if (!client?.active) throw ApiError.unauthorized('The client of this token is not active');
    return {
      kind: 'client',
      clientId: claims.sub,
      name: client.name,
      // A scope taken from the client since the token was issued no longer counts.
      scopes: claims.scope
        .split(' ')
        .filter(isScope)
        .filter((scope) => client.scopes.includes(scope)),
      // The client's stores as last read, not the token's claim: a change reaches tokens issued before it.
      stores: client.stores,
      tokenId: typeof claims.jti === 'string' ? claims.jti : '',
    };
  }
}
