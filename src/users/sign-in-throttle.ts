import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { RateLimitCounterRepository } from '../auth/rate-limit-counter.repository.js';

/** Failed sign-ins are counted in windows of this length, from the first failure. */
const FAILURE_WINDOW_MS = 15 * 60_000;

/**
 * Failed sign-ins per account (the email, as typed, in lower case) and per client address,
 * counted with the credential rate limit's PostgreSQL counters (every instance together). Only
 * failures count; past either limit every attempt is refused with 429 until the window ends,
 * whether its password is right or not.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly counters: RateLimitCounterRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async check(email: string, address: string): Promise<void> {
    const [account, origin] = await Promise.all([this.counters.peek(accountKey(email)), this.counters.peek(addressKey(address))]);
    const blocked = [
      account.hits >= this.config.signInFailuresPerAccount ? account.secondsLeft : 0,
      origin.hits >= this.config.signInFailuresPerAddress ? origin.secondsLeft : 0,
    ];
    const retryAfter = Math.max(...blocked);
    if (retryAfter > 0) {
      throw new ApiError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins; retry in ${retryAfter} s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
  }

  async failed(email: string, address: string): Promise<void> {
    await Promise.all([
      this.counters.increment(accountKey(email), FAILURE_WINDOW_MS, this.config.signInFailuresPerAccount),
      this.counters.increment(addressKey(address), FAILURE_WINDOW_MS, this.config.signInFailuresPerAddress),
    ]);
  }
}

function accountKey(email: string): string {
  return `sign-in-failures:account:${email}`;
}

function addressKey(address: string): string {
  return `sign-in-failures:address:${address}`;
}
