import type { ErrorBody } from '../support/api.js';
import { groupWithOrders, holdOrdersTable, RATE_UP } from '../support/impact-preview.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

describe('fiscal group impact preview: the deadline (e2e)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    // A deadline short enough to pass while the database waits or the engine works on a few thousand orders.
    t = await bootTestApp({ IMPACT_PREVIEW_DEADLINE_MS: '250' });
    token = await t.tokenFor(['admin']);
  });
  afterAll(async () => {
    await t.close();
  });

  const preview = (id: string) => t.http.post<ErrorBody>(`/admin/fiscal-groups/${id}/impact`, RATE_UP, { token });

  it('stops the statement the database holds at the deadline and answers 503 DEADLINE_EXCEEDED with Retry-After', async () => {
    const group = await groupWithOrders(t.dataSource, 'held', 3);
    const table = await holdOrdersTable(t.databaseUrl);
    try {
      const answer = await preview(group.id);
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({ error: 'DEADLINE_EXCEEDED', message: 'The request ran past its 250 ms deadline and was stopped' });
      expect(answer.headers.get('retry-after')).toBe('1');
      // Not only the answer: the preview's statement no longer waits for the table.
      expect(await table.waiting()).toBe(0);
    } finally {
      await table.release();
    }
  });

  it('stops between orders when the engine work passes the deadline', async () => {
    // 3,000 orders of 20 lines, each taxed twice: far more than 250 ms of work.
    const group = await groupWithOrders(t.dataSource, 'large', 3000, 20);
    const answer = await preview(group.id);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('DEADLINE_EXCEEDED');
  });
});
