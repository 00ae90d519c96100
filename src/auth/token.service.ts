import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';

/** The claims of an access token as its signature vouches for them; each is checked by whoever reads it. */
export interface AccessTokenClaims {
  sub?: unknown;
  scope?: unknown;
  jti?: unknown;
  iat?: unknown;
  exp?: unknown;
  nbf?: unknown;
}

/** Verified tokens kept at most: a few megabytes; beyond it the oldest is verified again when it comes back. */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

@Injectable()
export class TokenService {
  /** Built once: given the raw string, jsonwebtoken builds a key object on every verification (a third of a request's CPU). */
  private readonly verificationKey: KeyObject;
  /** Verified tokens by their text, oldest first (see `verify`). */
  private readonly verified = new Map<string, { claims: AccessTokenClaims; exp: number }>();

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.verificationKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  }

  /** `stores` (a store-limited client's) goes in a `stores` claim; the guard still applies the client's current stores. */
  async issue(clientId: string, scopes: string[], stores: readonly string[] = []): Promise<IssuedToken> {
    const accessToken = await this.jwt.signAsync(
      stores.length > 0 ? { scope: scopes.join(' '), stores: [...stores] } : { scope: scopes.join(' ') },
      {
        subject: clientId,
        jwtid: randomUUID(),
        expiresIn: this.config.jwtTtlSeconds,
        issuer: this.config.jwtIssuer,
        audience: this.config.jwtAudience,
        algorithm: 'HS256',
      },
    );
    return { accessToken, expiresIn: this.config.jwtTtlSeconds };
  }

  /**
   * The claims of a token whose signature, algorithm, issuer and audience hold and which has not
   * expired; throws jsonwebtoken's error otherwise (`TokenExpiredError` when it has expired).
   * A client sends the same token with every request for its whole life, so a verified token is
   * kept (by its full text, signature included) until it expires: its expiry and not-before are
   * checked again on every use, the rest cannot change. Lifetime, scopes and the client's state
   * are the callers' checks, made on every request.
   */
  verify(token: string, nowMs = Date.now()): AccessTokenClaims {
    const nowSeconds = Math.floor(nowMs / 1000);
    const known = this.verified.get(token);
    if (known !== undefined) {
      // jsonwebtoken's own test: expired once the current second reaches `exp`.
      if (nowSeconds < known.exp) return known.claims;
      this.verified.delete(token);
    }
    const claims = this.jwt.verify<AccessTokenClaims>(token, {
      clockTimestamp: nowSeconds,
      secret: this.verificationKey as unknown as string,
      algorithms: ['HS256'],
      issuer: this.config.jwtIssuer,
      audience: this.config.jwtAudience,
    });
    // Without a numeric exp the token never expires for jsonwebtoken: not kept (and refused for its lifetime anyway);
    // with a not-before still ahead jsonwebtoken has already refused it.
    if (typeof claims.exp === 'number') {
      if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims: Object.freeze(claims), exp: claims.exp });
    }
    return claims;
  }

  /**
   * Checks only the signature, issuer, audience, expiry and scope claim of an `Authorization:
   * Bearer` token, with no database access: cheap enough to run before a request body is read.
   * The access guard still makes the full check (active client) afterwards.
   */
  bearerProblem(authorization: string | undefined, requiredScopes: readonly string[]): ApiError | undefined {
    const token = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return ApiError.unauthorized(BEARER_REQUIRED);
    let claims: AccessTokenClaims;
    try {
      claims = this.verify(token);
    } catch (error) {
      return ApiError.unauthorized((error as { name?: string }).name === 'TokenExpiredError' ? TOKEN_EXPIRED : TOKEN_INVALID);
    }
    const lifetime = lifetimeProblem(claims, this.config.jwtTtlSeconds);
    if (lifetime) return ApiError.unauthorized(lifetime);
    const granted = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    const missing = requiredScopes.filter((scope) => !granted.includes(scope));
    return missing.length > 0 ? ApiError.forbidden(scopeMissingMessage(missing)) : undefined;
  }
}

/** How far ahead of this instance's clock another instance may have stamped `iat`. */
const CLOCK_SKEW_SECONDS = 10;

/**
 * Why a correctly signed token is refused for its lifetime, or undefined: it must say when it
 * was issued and when it ends, live no longer than JWT_TTL_SECONDS and not be issued in the
 * future. Shared by the pre-body check and the access guard's JwtStrategy so that both refuse the same
 * tokens. See "Access token lifetime" in docs/api-decisions.md.
 */
export function lifetimeProblem(claims: { iat?: unknown; exp?: unknown }, ttlSeconds: number, nowMs = Date.now()): string | undefined {
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isFinite(iat) || !Number.isFinite(exp)) return TOKEN_WITHOUT_LIFETIME;
  if (exp - iat > ttlSeconds || iat > nowMs / 1000 + CLOCK_SKEW_SECONDS) return TOKEN_TOO_LONG;
  return undefined;
}

export function scopeMissingMessage(missing: readonly string[]): string {
  return `This operation needs the scope ${missing.join(', ')}`;
}

export const BEARER_REQUIRED = 'A bearer token is required (Authorization: Bearer <token>)';
export const TOKEN_EXPIRED = 'The access token has expired';
export const TOKEN_INVALID = 'The access token is invalid';
export const TOKEN_WITHOUT_LIFETIME = 'The access token must carry iat and exp';
export const TOKEN_TOO_LONG = 'The access token lives longer than this service issues tokens for';
