import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../common/logging/logger.js';
import type { EmbeddedPostgres } from './embedded-postgres.js';

const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 10_000;

/**
 * Keeps the embedded PostgreSQL running: when it dies (killed, out of memory, a crash), the
 * death is logged at error level once, and the server is started again on the same data
 * directory and port, with an exponential backoff (the dead server's backends may still hold
 * its shared memory for a moment). The pool reconnects by itself; readiness is red meanwhile
 * because it queries the database. A `stop()` of the service is not a death.
 */
export class EmbeddedPostgresSupervisor {
  private restarting?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly database: EmbeddedPostgres,
    private readonly logger: Logger,
  ) {}

  /** Pass as `onUnexpectedExit` of the EmbeddedPostgres. */
  readonly onUnexpectedExit = (code: number | null, signal: NodeJS.Signals | null): void => {
    if (this.stopped) return;
    this.logger.error({ component: 'postgres', code, signal }, 'the embedded PostgreSQL stopped unexpectedly; restarting it');
    this.restarting ??= this.restart().finally(() => (this.restarting = undefined));
  };

  /** Before the service stops the database itself. */
  stop(): void {
    this.stopped = true;
  }

  private async restart(): Promise<void> {
    const downSince = Date.now();
    for (let attempt = 1, delay = FIRST_DELAY_MS; !this.stopped; attempt++, delay = Math.min(delay * 2, MAX_DELAY_MS)) {
      await sleep(delay);
      if (this.stopped) return;
      try {
        await this.database.restart();
        this.logger.warn({ component: 'postgres', attempt, downMs: Date.now() - downSince }, 'the embedded PostgreSQL was restarted');
        return;
      } catch (error) {
        this.logger.warn(
          { component: 'postgres', attempt, nextInMs: Math.min(delay * 2, MAX_DELAY_MS), err: error },
          'restarting the embedded PostgreSQL failed; retrying',
        );
      }
    }
  }
}
