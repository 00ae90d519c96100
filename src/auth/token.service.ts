import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
}
