import { bootTestApp, BOOTSTRAP_ID, type TestApp } from '../support/test-app.js';
import { forgeJwt } from '../support/tokens.js';

/**
 * A token signed with the service's own key is still refused when it does not say when it ends,
 * or lives longer than JWT_TTL_SECONDS: a leaked key aside, such a token could only come from a
 * mistake, and it would never stop working. Both checks refuse it: the one made before a body is
 * read (a POST with a body) and the passport strategy (a GET, a POST without a body).
 */
const TTL_SECONDS = 600;

describe('access token lifetime (e2e)', () => {
  let t: TestApp;
  const now = () => Math.floor(Date.now() / 1000);
  const claims = (lifetime: Record<string, unknown>) =>
    forgeJwt({
      sub: BOOTSTRAP_ID,
      scope: 'admin orders platform',
      iss: t.config.jwtIssuer,
      aud: t.config.jwtAudience,
      jti: 'x',
      ...lifetime,
    });

  beforeAll(async () => {
    t = await bootTestApp({ JWT_TTL_SECONDS: String(TTL_SECONDS) });
  });
  afterAll(() => t.close());

  const refused: [string, () => Record<string, unknown>][] = [
    ['without exp', () => ({ iat: now() })],
    ['without iat', () => ({ exp: now() + 60 })],
    ['with a text exp', () => ({ iat: now(), exp: String(now() + 60) })],
    ['living one second longer than JWT_TTL_SECONDS', () => ({ iat: now(), exp: now() + TTL_SECONDS + 1 })],
    // Issued in the future, the lifetime rule alone would let it work for a year.
    ['issued a year ahead', () => ({ iat: now() + 365 * 86_400, exp: now() + 365 * 86_400 + 60 })],
  ];

  it('accepts a token living exactly JWT_TTL_SECONDS, on every kind of check', async () => {
    const token = claims({ iat: now(), exp: now() + TTL_SECONDS });
    expect((await t.http.get('/authentication/me', { token })).status).toBe(200);
    // Without a body the strategy alone decides: 400 for the missing body means the token passed.
    expect((await t.http.post('/enrich-order', undefined, { token })).status).toBe(400);
    expect((await t.http.post('/enrich-order', { order: {} }, { token })).status).toBe(400);
  });

  it.each(refused)('answers 401 in the admin shape for a token %s, before and after the body', async (_label, lifetime) => {
    const token = claims(lifetime());
    for (const response of [
      await t.http.get('/authentication/me', { token }),
      await t.http.post('/enrich-order', undefined, { token }),
      await t.http.post('/enrich-order', { order: {} }, { token }),
    ]) {
      expect([response.status, response.headers.get('www-authenticate'), response.body]).toEqual([
        401,
        'Bearer',
        { error: 'UNAUTHORIZED', message: expect.any(String) },
      ]);
    }
  });

  it.each(refused)('answers 401 invalid_token on the new-order webhook for a token %s', async (_label, lifetime) => {
    const token = claims(lifetime());
    for (const response of [
      await t.http.post('/domain-cliente/webhook/new-order', undefined, { token }),
      await t.http.post('/domain-cliente/webhook/new-order', { orderId: 'x' }, { token }),
    ]) {
      expect([response.status, response.body]).toEqual([401, { error: 'invalid_token', error_description: expect.any(String) }]);
    }
  });

  it('answers 401 in the point-of-sale shape for a token without exp', async () => {
    const response = await t.http.post('/api/order/status', { orderId: 'x' }, { token: claims({ iat: now() }) });
    expect([response.status, response.body]).toEqual([401, { error: expect.any(String), message: expect.any(String) }]);
  });
});
