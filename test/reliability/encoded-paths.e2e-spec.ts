import { ErrorFamily } from '../../src/common/errors/error-families.js';
import type { OAuthErrorBody, PosErrorBody, Schemas } from '../support/api.js';
import { expectErrorShape } from '../support/openapi-routes.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The router decodes percent-escapes before it matches a route, so a path may spell a route with
 * escaped letters and still reach it. Its errors must then be in that route's family, as must the
 * 404 of an escaped URL below a family's path and the refusals Node answers before any routing.
 */
describe('percent-encoded paths (reliability)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('answers a route reached through escaped letters in its own family', async () => {
    // Each route runs: its credential check answers 401 (Basic on the channels, bearer on the others).
    const channels = await t.http.post<Schemas['ChannelErrorResponseDto']>('/v3/channels-%73tores', { stores: [], channels: [] });
    const fulfillment = await t.http.post<PosErrorBody>('/api/%6Frder/status', { order_id: 'x', status: 'READY' });
    const webhook = await t.http.post<OAuthErrorBody>('/domain-%63liente/webhook/new-order', { order_id: 'x' });
    expect([channels.status, fulfillment.status, webhook.status]).toEqual([401, 401, 401]);
    expect(channels.body).toEqual({ statusCode: '401', message: expect.any(String) });
    expectErrorShape(ErrorFamily.PointOfSale, fulfillment.body);
    expect(webhook.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  });

  it('answers an unmatched escaped URL below a family path in that family', async () => {
    const answer = await t.http.get<PosErrorBody>('/api/%6Frder/no-such-route');
    expect(answer.status).toBe(404);
    expectErrorShape(ErrorFamily.PointOfSale, answer.body);
  });

  it('keeps the raw path for a malformed escape, which the router refuses', async () => {
    const answer = await t.http.get<PosErrorBody>('/api/order/%E0%A4%A');
    expect(answer.status).toBe(400);
    expectErrorShape(ErrorFamily.PointOfSale, answer.body);
  });

  it('answers a refusal of the HTTP parser (431) for an escaped path in its family', async () => {
    const answer = await t.http.post<PosErrorBody>('/api/%6Frder/status', undefined, { headers: { 'x-filler': 'a'.repeat(20_000) } });
    expect(answer.status).toBe(431);
    expectErrorShape(ErrorFamily.PointOfSale, answer.body);
  });
});
