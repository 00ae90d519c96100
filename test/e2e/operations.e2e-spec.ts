import type { Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

describe('health and metrics (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('reports liveness and readiness without a token', async () => {
    expect((await t.http.get('/health/live')).body).toEqual({ status: 'ok' });
    const ready = await t.http.get<Schemas['ReadinessDto']>('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up', migrations: 'applied', accepting: true } });
  });

  it('sends security headers on every response, errors and docs included', async () => {
    for (const response of [
      await t.http.get('/health/live'),
      await t.http.get('/no/such/route'),
      await t.http.get('/docs'),
      await t.http.post<Schemas['LoginResponseDto']>('/authentication/login', {}),
    ]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('strict-transport-security')).toMatch(/max-age=/);
      expect(response.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(response.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('exposes Prometheus request counters by route and status, and pool gauges', async () => {
    await t.http.get('/health/live');
    await t.http.get('/no/such/route');
    const metrics = await t.http.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="\/api\/health\/live",status="200"\} \d+/);
    expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/health\/live",status="200"\}/,
    );
    expect(metrics.text).toMatch(/db_pool_connections \d+/);
  });

  it('goes red on readiness, saying why, and answers 503 to everything but the probes while draining', async () => {
    const { LifecycleState } = await import('../../src/common/http/lifecycle-state.js');
    const lifecycle = t.app.get(LifecycleState);
    lifecycle.draining = true;
    try {
      const ready = await t.http.get<Schemas['ReadinessDto']>('/health/ready');
      expect(ready.status).toBe(503);
      expect(ready.body.checks).toEqual({ database: 'up', migrations: 'applied', accepting: false });
      // The process is up, finishing its requests: not a reason to restart it.
      expect((await t.http.get('/health/live')).status).toBe(200);
      // An empty body (outside the schema): sent raw.
      const other = await t.http.post<Schemas['ErrorResponseDto']>('/authentication/login', {});
      expect(other.status).toBe(503);
      expect(other.body.error).toBe('SERVICE_UNAVAILABLE');
    } finally {
      lifecycle.draining = false;
    }
  });
});

describe('metrics switched off (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ METRICS_ENABLED: 'false' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 on /api/metrics', async () => {
    expect((await t.http.get('/metrics')).status).toBe(404);
  });
});

describe('readiness with the database gone (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.app.close();
  });

  // How fast it answers is bench:database-outage's (a readiness probe while the database is down); a probe that hung would time the test out.
  it('answers 503 when the database is unreachable', async () => {
    const { withAdminClient } = await import('../setup/test-database.js');
    const name = new URL(t.databaseUrl).pathname.slice(1);
    // Raw SQL on purpose: the fault under test is the database itself going away.
    await withAdminClient((client) => client.query(`DROP DATABASE ${client.escapeIdentifier(name)} WITH (FORCE)`));
    const ready = await t.http.get<Schemas['ReadinessDto']>('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe('down');
  });
});
