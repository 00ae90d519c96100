import { RateLimitCounterEntity } from '../../src/auth/rate-limit-counter.entity.js';
import { RateLimitCounterRepository } from '../../src/auth/rate-limit-counter.repository.js';
import { SqlRunner } from '../../src/database/sql-runner.js';
import { failed } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const LOGIN = '/authentication/login';
const TOKEN = '/domain-cliente/token';
const WRONG = { client_id: '999999', client_secret: 'wrong', grant_type: 'client_credentials' as const };

/**
 * The credential rate limit is counted in PostgreSQL, so two instances behind one load balancer
 * allow AUTH_RATE_LIMIT_PER_MINUTE in total, not twice that (the in-memory guard it replaced counted
 * per instance: every request below would have been a 401).
 */
describe('credential rate limit shared by two instances (e2e)', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
    b = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' }, { databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('deletes expired counters as it counts (they do not pile up)', async () => {
    const counters = a.dataSource.getRepository(RateLimitCounterEntity);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await counters.insert(
      Array.from({ length: 5 }, (_, index) => ({ counterKey: `expired-${index + 1}`, hits: 5, expiresAt: aMinuteAgo })),
    );
    failed(await a.apiAs().POST('/api/authentication/login', { body: WRONG }), 401);
    const rows = await counters.find();
    expect(rows.filter((row) => row.counterKey.startsWith('expired-'))).toEqual([]);
    expect(rows.map((row) => row.hits)).toEqual([1]);
    await counters.clear();
  });

  it('counts the requests of both instances against one limit', async () => {
    const responses = [];
    for (const instance of [a, a, b, b, a]) responses.push(await instance.http.post(LOGIN, WRONG));
    expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 429, 429]);
    expect(responses.map((response) => response.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0', '0']);

    const limited = await b.http.post(LOGIN, WRONG);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: 'RATE_LIMITED', message: expect.stringMatching(/^Too many requests; retry in \d+ s$/) });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('lets exactly the limit through when both instances are hit at the same moment', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, (_, index) => (index % 2 ? a : b).http.post(TOKEN, WRONG)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
    expect(await a.dataSource.getRepository(RateLimitCounterEntity).sum('hits')).toBe(6 + 12);
  });

  it('opens a new window when the last one has ended', async () => {
    const storage = new RateLimitCounterRepository(a.app.get(SqlRunner));
    // A 2 s window, limit 2: the seconds left (rounded up) are 1 or 2.
    const hit = () => storage.increment('window-test', 2000, 2);
    // The first hit over the limit, whatever the machine's speed: were the hits spread over two windows, the count starts again.
    const blocked = await eventually(
      async () => {
        const record = await hit();
        return record.isBlocked && record;
      },
      { what: 'a hit over the limit' },
    );
    expect(blocked).toEqual({ totalHits: 3, timeToExpire: blocked.timeToExpire, isBlocked: true, timeToBlockExpire: blocked.timeToExpire });
    expect([1, 2]).toContain(blocked.timeToExpire);
    // The database's clock ends the window: the key is blocked until a hit is let through again, as the first of a new window.
    const fresh = await eventually(
      async () => {
        const record = await hit();
        return !record.isBlocked && record;
      },
      { what: 'the window to end', intervalMs: 100 },
    );
    expect(fresh).toEqual({ totalHits: 1, timeToExpire: fresh.timeToExpire, isBlocked: false, timeToBlockExpire: 0 });
    expect([1, 2]).toContain(fresh.timeToExpire);
  });
});
