import { Injectable } from '@nestjs/common';
import { Counter, Histogram, type Registry } from 'prom-client';

/** What a round of a background job came to: `skipped` when another instance held the job's lock. */
export type RoundStatus = 'done' | 'failed' | 'skipped';

/**
 * The background jobs' metrics. Created unregistered, because this layer does not know the
 * application's registry: the metrics module adds them to it (`registerWith`).
 */
@Injectable()
export class JobMetrics {
  readonly runs = new Counter({
    name: 'background_job_runs_total',
    help: 'Rounds of background jobs by job and outcome (done, failed, skipped: another instance held the lock)',
    labelNames: ['job', 'outcome'] as const,
    registers: [],
  });

  readonly duration = new Histogram({
    name: 'background_job_duration_seconds',
    help: 'Duration of the rounds of background jobs that ran (done or failed), by job',
    labelNames: ['job'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
    registers: [],
  });

  registerWith(registry: Registry): void {
    registry.registerMetric(this.runs);
    registry.registerMetric(this.duration);
  }

  observe(job: string, outcome: RoundStatus, seconds?: number): void {
    this.runs.inc({ job, outcome });
    if (seconds !== undefined) this.duration.observe({ job }, seconds);
  }
}
