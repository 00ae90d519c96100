import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ApiClientsService } from './api-clients.service.js';
import type { ClientPrincipal } from './principal.js';
import { isScope } from './scopes.js';
import { lifetimeProblem, TokenService } from './token.service.js';

interface AccessTokenClaims {
  sub?: unknown;
  scope?: unknown;
  jti?: unknown;
  iat?: unknown;
  exp?: unknown;
}

/**
 * The key this strategy hands to passport-jwt's verifier: the service's own verification (`TokenService.verify`), which
 * the pre-body check has usually just run for the same token and keeps verified tokens until they expire. Checked with
 * the same algorithm, issuer, audience and expiry, it throws jsonwebtoken's own errors, so passport-jwt answers as before;
 * the token's signature is not computed a second time per request.
 */
class ServiceTokenVerification {
  constructor(readonly tokens: TokenService) {}
}

type JwtVerifier = (token: string, secretOrKey: unknown, options: unknown, done: (error: Error | null, claims?: unknown) => void) => void;
// passport-jwt verifies through this replaceable static; any other key still goes to the package's own verifier.
const strategyStatics = Strategy as unknown as { JwtVerifier: JwtVerifier };
const packageVerifier = strategyStatics.JwtVerifier;
strategyStatics.JwtVerifier = (token, secretOrKey, options, done) => {
  if (!(secretOrKey instanceof ServiceTokenVerification)) return packageVerifier(token, secretOrKey, options, done);
  let claims: AccessTokenClaims;
  try {
    claims = secretOrKey.tokens.verify(token);
  } catch (error) {
    return done(error as Error);
  }
  done(null, claims);
};

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  private readonly ttlSeconds: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clients: ApiClientsService,
    tokens: TokenService,
  ) {
    const verification = new ServiceTokenVerification(tokens);
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // Typed as a key by passport-jwt, which only hands it on to its verifier (above).
      secretOrKeyProvider: (_request, _token, done) => done(null, verification as unknown as string),
      // What TokenService.verify checks as well: only the algorithm the service signs with (`alg: none` and key-confusion
      // tokens are refused), its issuer and audience, and the expiry.
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
