import { WebhookDeliveryRetention } from '../../src/webhooks/webhook-delivery-retention.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** The webhook delivery log once grew with every attempt and nothing pruned it. */
describe('webhook delivery log retention (e2e)', () => {
  let t: TestApp;
  let other: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ WEBHOOK_DELIVERY_RETENTION_DAYS: '90' });
    other = await bootTestApp({ WEBHOOK_DELIVERY_RETENTION_DAYS: '90' }, { databaseUrl: t.databaseUrl });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it('deletes rows older than WEBHOOK_DELIVERY_RETENTION_DAYS in batches, one instance at a time, and keeps the others', async () => {
    const [{ id }] = await t.dataSource.query(
      `INSERT INTO orders (order_id, status, payload) VALUES ('retention-1', 'FORWARDED', '{}') RETURNING id`,
    );
    // 2,500 rows of 91 to 120 days ago (three batches of at most 1,000), 300 of 89 days ago down to today.
    await t.dataSource.query(
      `INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, duration_ms, attempted_at)
       SELECT $1::uuid, n, 'retry', 'msg_x', 'http://r.example/h', '{}'::jsonb, 500, 5, now() - (91 + n % 30) * interval '1 day' FROM generate_series(1, 2500) AS n
       UNION ALL
       SELECT $1::uuid, 10000 + n, 'retry', 'msg_x', 'http://r.example/h', '{}'::jsonb, 200, 5, now() - (n % 90) * interval '1 day' + interval '1 hour'
       FROM generate_series(1, 300) AS n`,
      [id],
    );
    const results = await Promise.all([t.app.get(WebhookDeliveryRetention).prune(), other.app.get(WebhookDeliveryRetention).prune()]);
    // Whichever instance held the lock deleted some; together exactly the 2,500 old rows.
    expect(results.reduce<number>((sum, result) => sum + (result ?? 0), 0)).toBe(2500);
    const [{ left, oldest }] = await t.dataSource.query(
      `SELECT count(*)::int AS left, min(attempted_at) > now() - interval '90 days' AS oldest FROM webhook_delivery WHERE order_db_id = $1`,
      [id],
    );
    expect([left, oldest]).toEqual([300, true]);
    expect(await t.app.get(WebhookDeliveryRetention).prune()).toBe(0);
  });

  it('counts the pruning rounds and their duration in the instance metrics', async () => {
    const rounds = async (app: TestApp) => {
      const text = (await app.http.get('/metrics')).text;
      const counts: Record<string, number> = {};
      for (const [, outcome, value] of text.matchAll(
        /^background_job_runs_total\{job="webhook-delivery-prune",outcome="([a-z]+)"\} (\d+)$/gm,
      )) {
        counts[outcome] = Number(value);
      }
      return counts;
    };
    const before = await rounds(t);
    expect(await t.app.get(WebhookDeliveryRetention).prune()).toBe(0);
    expect(await rounds(t)).toEqual({ ...before, done: (before.done ?? 0) + 1 });
    expect(await t.http.get('/metrics').then((answer) => answer.text)).toMatch(
      /^background_job_duration_seconds_count\{job="webhook-delivery-prune"\} \d+$/m,
    );
  });
});
