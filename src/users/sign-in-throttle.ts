import { isIPv6 } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { type CounterHit, RateLimitCounterRepository } from '../auth/rate-limit-counter.repository.js';

/** Failed sign-ins are counted in windows of this length, from the first failure. */
const FAILURE_WINDOW_MS = 15 * 60_000;
/** Wrong second-factor codes per person in a window, from any address. */
export const SECOND_FACTOR_FAILURES_PER_PERSON = 10;

/** A sign-in attempt counted as a failure until `release` takes it back (the password was right). */
export interface SignInAttempt {
  release(): Promise<void>;
}

/**
 * Failed password checks (sign-ins, and password changes with a wrong current password) per client
 * address and per account from that address (the email, as typed, in lower case), counted with the
 * credential rate limit's PostgreSQL counters (every instance together). Past either limit every
 * attempt from that address is refused with 429 until the window ends, whether its password is
 * right or not. Nothing is counted per account alone: failures from one address never refuse the
 * account's right password from another address, so nobody can lock a person out.
 *
 * An attempt is counted before its password is checked, in the same statement that reads the
 * count, and taken back when its password is right or it is refused: only failures stay counted, and
 * attempts sent together cannot check more passwords than the limit, since each one under way holds its place.
 * See "One answer for every failed sign-in" in docs/api-decisions.md.
 */
@Injectable()
export class SignInThrottle {
  constructor(
    private readonly counters: RateLimitCounterRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Counts the attempt on both keys, or refuses it with 429 (and counts nothing) when either is past its limit. */
  async reserve(email: string, address: string): Promise<SignInAttempt> {
    return this.reserveAll(this.passwordLimits(email, address));
  }

  /**
   * A second-factor code after the right password: counted as a failed sign-in from the address as above, and also per
   * person whatever the address (`SECOND_FACTOR_FAILURES_PER_PERSON`). Only someone who knows the password reaches this
   * step, so that count cannot be used to lock out a person by their email alone; it stops a known password from
   * guessing the 10^6 codes from many addresses. See "Two-factor sign-in" in docs/access.md.
   */
  async reserveSecondFactor(userId: string, email: string, address: string): Promise<SignInAttempt> {
    return this.reserveAll([
      ...this.passwordLimits(email, address),
      [`second-factor-failures:user:${userId}`, SECOND_FACTOR_FAILURES_PER_PERSON],
    ]);
  }

  private passwordLimits(email: string, address: string): Array<[key: string, limit: number]> {
    const client = clientNetworkOf(address);
    return [
      [accountFromAddressKey(email, client), this.config.signInFailuresPerAccount],
      [addressKey(client), this.config.signInFailuresPerAddress],
    ];
  }

  private async reserveAll(limits: Array<[key: string, limit: number]>): Promise<SignInAttempt> {
    const hits = await Promise.all(limits.map(([key]) => this.counters.hit(key, FAILURE_WINDOW_MS)));
    const attempt = { release: () => this.release(limits, hits) };
    const retryAfter = Math.max(...hits.map((hit, index) => (hit.hits > limits[index]![1] ? hit.secondsLeft : 0)));
    if (retryAfter > 0) {
      // A refused attempt checked no password: it is no failure, and must not keep others out once a sign-in takes its own count back.
      await attempt.release();
      throw new ApiError(ErrorCode.RATE_LIMITED, `Too many failed sign-ins; retry in ${retryAfter} s`, {
        headers: { 'retry-after': String(retryAfter) },
      });
    }
    return attempt;
  }

  private async release(limits: Array<[key: string, limit: number]>, hits: CounterHit[]): Promise<void> {
    await Promise.all(limits.map(([key], index) => this.counters.release(key, hits[index]!.window)));
  }
}

/** The address first: no address holds `:account:`, so two (address, email) pairs never share a key. */
function accountFromAddressKey(email: string, address: string): string {
  return `sign-in-failures:address:${address}:account:${email}`;
}

function addressKey(address: string): string {
  return `sign-in-failures:address:${address}`;
}

/**
 * The client an address stands for in the counts: an IPv4 address, or the /64 network of an IPv6 one. One
 * subscriber's line or server is given a whole /64 (2^64 addresses): counted per address, it could try 5
 * passwords from each of them. An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is its IPv4 address.
 */
export function clientNetworkOf(address: string): string {
  const plain = address.trim().toLowerCase().replace(/%.*$/, '');
  if (!isIPv6(plain)) return plain;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = plain.split('::');
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])));
  const written = groupsOf(head);
  const after = tail === undefined ? [] : groupsOf(tail);
  const groups = [...written, ...Array<string>(8 - written.length - after.length).fill('0'), ...after];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
