import { Inject, Injectable } from '@nestjs/common';
import { createSecretKey } from 'node:crypto';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ClientsService } from './clients.service.js';
import type { ClientPrincipal } from './principal.js';
import { isScope } from './scopes.js';
import { lifetimeProblem } from './token.service.js';

interface AccessTokenClaims {
  sub?: unknown;
  scope?: unknown;
  jti?: unknown;
  iat?: unknown;
  exp?: unknown;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clients: ClientsService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject built once: given the raw string, jsonwebtoken rebuilds a key on every verification.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret, 'utf8')) as unknown as string,
      // Only the algorithm the service signs with: `alg: none` and key-confusion tokens are refused.
      algorithms: ['HS256'],
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      ignoreExpiration: false,
    });
    this.ttlSeconds = config.jwtTtlSeconds;
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
