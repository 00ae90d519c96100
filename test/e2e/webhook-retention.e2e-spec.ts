import { WebhookDeliveryRetention } from '../../src/webhooks/webhook-delivery-retention.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { order } from '../factories/index.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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
    const { id } = await order(t.dataSource, { orderId: 'retention-1', status: 'FORWARDED' });
    // 2,500 rows of 91 to 120 days ago (three batches of at most 1,000), 300 of 89 days ago down to today.
    const daysAgo = (days: number, hours = 0) => new Date(Date.now() - days * DAY + hours * HOUR);
    const delivery = {
      orderDbId: id,
      trigger: 'retry' as const,
      webhookId: 'msg_x',
      url: 'http://r.example/h',
      requestHeaders: {},
      durationMs: 5,
    };
    const rows = [
      ...Array.from({ length: 2500 }, (_, index) => ({
        ...delivery,
        attempt: index + 1,
        statusCode: 500,
        attemptedAt: daysAgo(91 + ((index + 1) % 30)),
      })),
      ...Array.from({ length: 300 }, (_, index) => ({
        ...delivery,
        attempt: 10_001 + index,
        statusCode: 200,
        attemptedAt: daysAgo((index + 1) % 90, 1),
      })),
    ];
    // 2,800 rows: inserted through the entity a thousand at a time (the factory writes and reads back one by one).
    const deliveries = t.dataSource.getRepository(WebhookDeliveryEntity);
    for (let start = 0; start < rows.length; start += 1000) await deliveries.insert(rows.slice(start, start + 1000));
    const results = await Promise.all([t.app.get(WebhookDeliveryRetention).prune(), other.app.get(WebhookDeliveryRetention).prune()]);
    // Whichever instance held the lock deleted some; together exactly the 2,500 old rows.
    expect(results.reduce<number>((sum, result) => sum + (result ?? 0), 0)).toBe(2500);
    const left = await deliveries.find({ where: { orderDbId: id }, order: { attemptedAt: 'ASC' } });
    const oldest = left[0]!.attemptedAt.getTime() > daysAgo(90).getTime();
    expect([left.length, oldest]).toEqual([300, true]);
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
