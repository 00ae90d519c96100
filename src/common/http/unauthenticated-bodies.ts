import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';

const HOLDS_PLACE = Symbol('holdsUnauthenticatedBodyPlace');
type RawRequest = IncomingMessage & { [HOLDS_PLACE]?: boolean };

/**
 * Counts the request bodies being read before any credential is checked (login, token, channel
 * configuration, unknown routes), so that connections trickling such bodies cannot hold an unbounded
 * share of memory and sockets. A place is taken before the body is read and given back once: when the
 * body has been read, or when the request ends in any other way (answered, aborted, timed out).
 * See "Credential bodies and unauthenticated reads" in docs/api-decisions.md.
 */
export class UnauthenticatedBodies {
  private reading = 0;

  constructor(readonly max: number) {}

  get inProgress(): number {
    return this.reading;
  }

  /** False when every place is taken. */
  take(request: FastifyRequest): boolean {
    if (this.reading >= this.max) return false;
    const raw = request.raw as RawRequest;
    this.reading += 1;
    raw[HOLDS_PLACE] = true;
    raw.once('close', () => this.release(request));
    return true;
  }

  release(request: FastifyRequest): void {
    const raw = request.raw as RawRequest;
    if (!raw[HOLDS_PLACE]) return;
    raw[HOLDS_PLACE] = false;
    this.reading -= 1;
  }
}
