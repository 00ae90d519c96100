import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AccessGuard } from './access.guard.js';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { ClientsService } from './clients.service.js';
import { CredentialRateLimitGuard } from './credential-rate-limit.guard.js';
import { JwtStrategy } from './jwt.strategy.js';
import { OAuthTokenController } from './oauth-token.controller.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([ApiClientEntity]),
    PassportModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ secret: config.jwtSecret, signOptions: { algorithm: 'HS256' } }),
    }),
  ],
  controllers: [AuthController, OAuthTokenController],
  providers: [
    ClientsService,
    ApiClientsRepository,
    TokenService,
    AuthService,
    JwtStrategy,
    CredentialRateLimitGuard,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [ClientsService, TokenService, AuthService, CredentialRateLimitGuard],
})
export class AuthModule {}
