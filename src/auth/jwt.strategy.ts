import { Inject, Injectable } from '@nestjs/common';
import { createSecretKey } from 'node:crypto';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ClientsService } from './clients.service.js';
import { isScope, type AuthenticatedClient } from './scopes.js';

interface AccessTokenClaims {
  sub?: unknown;
  scope?: unknown;
  jti?: unknown;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
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
  }

  async validate(claims: AccessTokenClaims): Promise<AuthenticatedClient> {
    if (typeof claims.sub !== 'string' || typeof claims.scope !== 'string') {
      throw ApiError.unauthorized('The access token is malformed');
    }
    if (!(await this.clients.isActive(claims.sub))) throw ApiError.unauthorized('The client of this token is not active');
    return {
      clientId: claims.sub,
      scopes: claims.scope.split(' ').filter(isScope),
      tokenId: typeof claims.jti === 'string' ? claims.jti : '',
    };
  }
}
