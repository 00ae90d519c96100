import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import { ThrottlerModule } from '@nestjs/throttler';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { SqlRunner } from '../database/sql-runner.js';
import { AccessGuard } from './access.guard.js';
import { ApiClientEntity } from './api-client.entity.js';
import { ApiClientsRepository } from './api-clients.repository.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { ApiClientsService } from './api-clients.service.js';
import { CredentialThrottlerGuard } from './credential-throttler.guard.js';
import { JwtStrategy } from './jwt.strategy.js';
import { OAuthTokenController } from './oauth-token.controller.js';
import { RateLimitCounterEntity } from './rate-limit-counter.entity.js';
import { RateLimitCounterRepository } from './rate-limit-counter.repository.js';
import { TokenService } from './token.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([ApiClientEntity, RateLimitCounterEntity]),
    PassportModule,
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ secret: config.jwtSecret, signOptions: { algorithm: 'HS256' } }),
    }),
    // The credential routes' limit: a fixed one-minute window per client address and route, counted in PostgreSQL.
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, SqlRunner],
      useFactory: (config: AppConfig, db: SqlRunner) => ({
        throttlers: [{ ttl: 60_000, limit: config.authRateLimitPerMinute }],
        storage: new RateLimitCounterRepository(db),
      }),
    }),
  ],
  controllers: [AuthController, OAuthTokenController],
  providers: [
    ApiClientsService,
    ApiClientsRepository,
    TokenService,
    AuthService,
    JwtStrategy,
    CredentialThrottlerGuard,
    { provide: RateLimitCounterRepository, inject: [SqlRunner], useFactory: (db: SqlRunner) => new RateLimitCounterRepository(db) },
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [ApiClientsService, TokenService, AuthService, CredentialThrottlerGuard, RateLimitCounterRepository],
})
export class AuthModule {}
