import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

@Injectable()
export class TokenService {
  /** Built once: given the raw string, jsonwebtoken builds a key object on every verification (a third of a request's CPU). */
  private readonly verificationKey: KeyObject;

  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.verificationKey = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  }

  async issue(clientId: string, scopes: string[]): Promise<IssuedToken> {
    const accessToken = await this.jwt.signAsync(
      { scope: scopes.join(' ') },
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
   * Checks only the signature, issuer, audience, expiry and scope claim of an `Authorization:
   * Bearer` token, with no database access: cheap enough to run before a request body is read.
   * The access guard still makes the full check (active client) afterwards.
   */
  bearerProblem(authorization: string | undefined, requiredScopes: readonly string[]): ApiError | undefined {
    const token = /^bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token) return ApiError.unauthorized(BEARER_REQUIRED);
    let claims: { scope?: unknown };
    try {
      claims = this.jwt.verify(token, {
        secret: this.verificationKey as unknown as string,
        algorithms: ['HS256'],
        issuer: this.config.jwtIssuer,
        audience: this.config.jwtAudience,
      });
    } catch (error) {
      return ApiError.unauthorized((error as { name?: string }).name === 'TokenExpiredError' ? TOKEN_EXPIRED : TOKEN_INVALID);
    }
    const granted = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    const missing = requiredScopes.filter((scope) => !granted.includes(scope));
    return missing.length > 0 ? ApiError.forbidden(scopeMissingMessage(missing)) : undefined;
  }
}

export function scopeMissingMessage(missing: readonly string[]): string {
  return `This operation needs the scope ${missing.join(', ')}`;
}

export const BEARER_REQUIRED = 'A bearer token is required (Authorization: Bearer <token>)';
export const TOKEN_EXPIRED = 'The access token has expired';
export const TOKEN_INVALID = 'The access token is invalid';
