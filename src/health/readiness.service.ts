import { Inject, Injectable } from '@nestjs/common';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { LifecycleState } from '../common/http/lifecycle-state.js';
import { SchemaMigrationsRepository } from '../database/schema-migrations.repository.js';
import { ALL_MIGRATIONS } from '../../migrations/index.js';

export interface ReadinessChecks {
  database: 'up' | 'down';
  migrations: 'applied' | 'pending' | 'unknown';
  accepting: boolean;
}

const CHECK_TIMEOUT_MS = 2000;
const MIGRATION_NAMES = ALL_MIGRATIONS.map((migration) => new migration().name ?? migration.name);

/**
 * Readiness for the load balancer: the database answers, every migration is applied, the
 * instance is not draining. Probes come every few seconds, so a healthy probe logs nothing
 * (no TypeORM migration listing either): one line is written on each change of state.
 */
@Injectable()
export class ReadinessService {
  private lastReady: boolean | undefined;
  private readonly logger: Logger;

  constructor(
    private readonly migrations: SchemaMigrationsRepository,
    private readonly lifecycle: LifecycleState,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'Readiness' });
  }

  async check(): Promise<{ ready: boolean; checks: ReadinessChecks }> {
    const checks: ReadinessChecks = { database: 'down', migrations: 'unknown', accepting: !this.lifecycle.draining };
    try {
      const applied = await withTimeout(this.migrations.appliedCount(MIGRATION_NAMES), CHECK_TIMEOUT_MS);
      checks.database = 'up';
      checks.migrations = applied === MIGRATION_NAMES.length ? 'applied' : 'pending';
    } catch {
      // Reported through the checks.
    }
    const ready = checks.database === 'up' && checks.migrations === 'applied' && checks.accepting;
    if (ready !== this.lastReady) {
      if (ready) this.logger.info({ checks }, this.lastReady === undefined ? 'ready' : 'ready again');
      else this.logger.warn({ checks }, 'not ready');
      this.lastReady = ready;
    }
    return { ready, checks };
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    }),
  ]);
}
