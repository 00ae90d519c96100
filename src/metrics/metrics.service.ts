import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JobMetrics } from '../database/jobs/job-metrics.js';
import { SqlRunner, type PoolStats } from '../database/sql-runner.js';

/** One registry per application instance (tests run several in one process). */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  constructor(db: SqlRunner, jobs: JobMetrics) {
    collectDefaultMetrics({ register: this.registry });
    jobs.registerWith(this.registry);
    const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const stats = db.poolStats();
          this.set(stats ? read(stats) : 0);
        },
      });
    poolGauge('db_pool_connections', 'Open connections in the database pool', (stats) => stats.totalCount);
    poolGauge('db_pool_idle_connections', 'Idle connections in the database pool', (stats) => stats.idleCount);
    poolGauge('db_pool_waiting_requests', 'Queries waiting for a pool connection', (stats) => stats.waitingCount);
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status: String(status) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }
}
