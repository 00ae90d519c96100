import { type CanActivate, type ExecutionContext, Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute window per client IP and route. Counters are per instance:
 * behind a load balancer of N instances an address gets at most N × the limit.
 */
@Injectable()
export class CredentialRateLimitGuard implements CanActivate, OnModuleDestroy {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private readonly sweeper = setInterval(() => this.sweep(), WINDOW_MS);

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.sweeper.unref();
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const key = `${request.ip}|${request.routeOptions.url ?? request.url}`;
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_MS };
      this.windows.set(key, window);
    }
    window.count += 1;
    const limit = this.config.authRateLimitPerMinute;
    reply.header('x-ratelimit-limit', String(limit));
    reply.header('x-ratelimit-remaining', String(Math.max(0, limit - window.count)));
    if (window.count > limit) {
      const retryAfter = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      throw new ApiError(ErrorCode.RATE_LIMITED, `Too many requests; retry in ${retryAfter} s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    return true;
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
