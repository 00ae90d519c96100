import { documentedOperations, expectErrorShape } from '../support/openapi-routes.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';

/**
 * A JSON body that is not an object (null, a number, a text, a boolean, an array) is a malformed
 * body on every route that takes JSON: 400, each with the code the others get, whatever the route
 * validates it with. The framework's pipe reads null as `{}`, which an update whose properties
 * are all optional would take as "change nothing".
 */
const NOT_OBJECTS = ['"s"', 'true', '[]'];

describe('JSON bodies that are not objects (reliability)', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A webhook address, so that the forward reads its body (nothing is sent: every body here is refused).
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000', ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/unused' });
  });
  afterAll(() => t.close());

  it('are answered alike on every operation with a JSON body, null as the others', async () => {
    const token = await t.adminToken();
    const basic = `Basic ${Buffer.from(`${BOOTSTRAP_ID}:${BOOTSTRAP_SECRET}`).toString('base64')}`;
    const operations = documentedOperations().filter((each) => each.operation.requestBody?.content?.['application/json']);
    expect(operations.length).toBeGreaterThan(15);
    for (const operation of operations) {
      const send = async (raw: string) => {
        const headers = { 'content-type': 'application/json', ...(operation.protectedByBearer ? {} : { authorization: basic }) };
        const answer = await t.http.request<Record<string, unknown>>(operation.method, operation.path, undefined, {
          token: operation.protectedByBearer ? token : undefined,
          raw,
          headers,
        });
        expectErrorShape(operation.family, answer.body);
        // The code (the sentence on the point-of-sale routes, the status on the channel configuration's).
        return [answer.status, answer.body.error ?? answer.body.statusCode];
      };
      const label = `${operation.method} ${operation.template}`;
      const [status, code] = await send('7');
      expect([label, status]).toEqual([label, 400]);
      for (const raw of ['null', ...NOT_OBJECTS]) expect([label, raw, await send(raw)]).toEqual([label, raw, [400, code]]);
    }
  });
});
