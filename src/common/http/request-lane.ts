import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-codes.js';

/**
 * A fixed number of places for one kind of expensive request in this instance. A request that finds
 * every place taken is refused at once with 429 and `Retry-After` (never queued: a queue would hold
 * its connection and its memory while it waits), and a place is given back whatever way the work ends.
 * See "Expensive requests have a lane" in docs/api-decisions.md.
 */
export class RequestLane {
  private running = 0;

  constructor(
    readonly name: string,
    readonly places: number,
    /** Seconds a refused client should wait: about how long a request of the lane may take. */
    readonly retryAfterSeconds: number,
  ) {}

  get inFlight(): number {
    return this.running;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.places) {
      throw new ApiError(
        ErrorCode.RATE_LIMITED,
        `${this.places} ${this.name} are already running on this instance; retry in ${this.retryAfterSeconds} s`,
        { headers: { 'retry-after': String(this.retryAfterSeconds) } },
      );
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
    }
  }
}
