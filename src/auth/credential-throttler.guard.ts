import { type ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';

/**
 * The credential routes' limit (AUTH_RATE_LIMIT_PER_MINUTE per client address and route, see
 * AuthModule): @nestjs/throttler's guard over the shared PostgreSQL storage. Past the limit it answers
 * 429 in the route family's error shape with `Retry-After` (seconds until the window ends).
 */
@Injectable()
export class CredentialThrottlerGuard extends ThrottlerGuard {
  protected override throwThrottlingException(context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    reply.header('x-ratelimit-limit', String(detail.limit));
    reply.header('x-ratelimit-remaining', '0');
    const retryAfter = String(detail.timeToBlockExpire);
    throw new ApiError(ErrorCode.RATE_LIMITED, `Too many requests; retry in ${retryAfter} s`, {
      headers: { 'retry-after': retryAfter },
    });
  }
}
