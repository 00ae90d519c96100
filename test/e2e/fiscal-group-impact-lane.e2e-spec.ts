import type { ErrorBody, Schemas } from '../support/api.js';
import { groupWithOrders, holdOrdersTable, RATE_UP } from '../support/impact-preview.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

describe('fiscal group impact preview: at most 2 at once (e2e)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
  });
  afterAll(async () => {
    await t.close();
  });

  const preview = (id: string) =>
    t.http.post<Schemas['FiscalGroupImpactDto'] & ErrorBody>(`/admin/fiscal-groups/${id}/impact`, RATE_UP, { token });

  it('refuses a third preview while two are in flight with 429 and Retry-After, and takes one again when they end', async () => {
    const group = await groupWithOrders(t.dataSource, 'lane', 2);
    const table = await holdOrdersTable(t.databaseUrl);
    const inFlight = [preview(group.id), preview(group.id)];
    try {
      await table.untilWaiting(2);

      const third = await preview(group.id);
      expect(third.status).toBe(429);
      expect(third.body).toEqual({
        error: 'RATE_LIMITED',
        message: '2 impact previews are already running on this instance; retry in 15 s',
      });
      // A place frees within the deadline (15 s by default).
      expect(third.headers.get('retry-after')).toBe('15');
      expect(await table.waiting()).toBe(2);
    } finally {
      await table.release();
    }
    // Two orders of one burger line, each line's taxes changed by the new rate.
    for (const answer of await Promise.all(inFlight)) {
      expect(answer.status).toBe(200);
      expect(answer.body.changed).toEqual({ orders: 2, lines: 2 });
    }
    expect((await preview(group.id)).status).toBe(200);
  });
});
