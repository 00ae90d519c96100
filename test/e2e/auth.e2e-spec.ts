import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';
import { ok, type ErrorBody, type OAuthErrorBody, type Schemas } from '../support/api.js';
import { loadCommittedOpenApi } from '../support/openapi-routes.js';
import { forgeJwt } from '../support/tokens.js';

const LOGIN = '/authentication/login';
const TOKEN = '/domain-cliente/token';

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

describe('authentication (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('numbers new clients one after the other (the sequence is not consumed 50 at a time)', async () => {
    const first = Number((await t.createClient(['admin'], 'first')).clientId);
    const second = Number((await t.createClient(['admin'], 'second')).clientId);
    expect(second).toBe(first + 1);
  });

  describe('POST /api/authentication/login', () => {
    it('issues a bearer token for the bootstrap development client', async () => {
      const login = await t.apiAs().POST('/api/authentication/login', {
        body: { client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' },
      });
      const issued = ok(login, 200);
      expect(issued).toEqual({ accessToken: expect.any(String), tokenType: 'Bearer', expiresIn: 3600 });
      expect(ok(await t.apiAs(issued.accessToken).GET('/api/authentication/me'), 200)).toEqual({
        clientId: BOOTSTRAP_ID,
        scopes: ['admin', 'orders', 'platform'],
      });
    });

    it('puts sub, scope, iat, exp, iss, aud and jti in the token', async () => {
      const login = await t.apiAs().POST('/api/authentication/login', {
        body: { client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' },
      });
      const claims = JSON.parse(Buffer.from(ok(login, 200).accessToken.split('.')[1]!, 'base64url').toString()) as Record<
        string,
        unknown
      > & {
        exp: number;
        iat: number;
      };
      expect(claims).toMatchObject({
        sub: BOOTSTRAP_ID,
        scope: 'admin orders platform',
        iss: t.config.jwtIssuer,
        aud: t.config.jwtAudience,
      });
      expect(claims.exp - claims.iat).toBe(3600);
      expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('accepts client_id as a JSON integer', async () => {
      const response = await t.http.post(LOGIN, {
        client_id: Number(BOOTSTRAP_ID),
        client_secret: BOOTSTRAP_SECRET,
        grant_type: 'client_credentials',
      });
      expect(response.status).toBe(200);
    });

    it('answers 401 with one message for an unknown id and for a wrong secret', async () => {
      const unknown = await t.http.post(LOGIN, { client_id: '999999', client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' });
      const wrong = await t.http.post(LOGIN, {
        client_id: BOOTSTRAP_ID,
        client_secret: 'not-the-secret',
        grant_type: 'client_credentials',
      });
      expect(unknown.status).toBe(401);
      expect(wrong.status).toBe(401);
      expect(unknown.body).toEqual({ message: 'Invalid client credentials', error: 'UNAUTHORIZED' });
      expect(wrong.body).toEqual(unknown.body);
    });

    it('answers 401 for a deactivated client', async () => {
      const client = await t.createClient(['admin']);
      await t.dataSource.getRepository(ApiClientEntity).update({ clientId: client.clientId }, { active: false });
      const response = await t.http.post(LOGIN, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_type: 'client_credentials',
      });
      expect(response.status).toBe(401);
    });

    it.each([
      ['another grant type', { client_id: '1', client_secret: 'x', grant_type: 'password' }, 'grant_type'],
      ['no grant type', { client_id: '1', client_secret: 'x' }, 'grant_type'],
      ['no client_id', { client_secret: 'x', grant_type: 'client_credentials' }, 'client_id'],
      ['no client_secret', { client_id: '1', grant_type: 'client_credentials' }, 'client_secret'],
      ['client_secret of the wrong type', { client_id: '1', client_secret: 5, grant_type: 'client_credentials' }, 'client_secret'],
      ['an unknown property', { client_id: '1', client_secret: 'x', grant_type: 'client_credentials', extra: true }, 'extra'],
    ])('answers 400 VALIDATION_FAILED for %s', async (_label, body, field) => {
      const response = await t.http.post<ErrorBody>(LOGIN, body);
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
      expect(response.body.details?.map((detail) => detail.field)).toContain(field);
    });
  });

  describe('POST /api/domain-cliente/token', () => {
    it('answers a wrong secret and another grant type exactly as the OpenAPI examples show', async () => {
      const responses = loadCommittedOpenApi().paths['/api/domain-cliente/token'].post.responses;
      const example = (status: number) => responses[status]?.content?.['application/json']?.example;
      const wrongSecret = await t.http.post(TOKEN, { client_id: BOOTSTRAP_ID, client_secret: 'wrong', grant_type: 'client_credentials' });
      expect([wrongSecret.status, wrongSecret.body]).toEqual([401, example(401)]);
      const otherGrant = await t.http.post(TOKEN, { client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'password' });
      expect([otherGrant.status, otherGrant.body]).toEqual([400, example(400)]);
    });

    it('grants a token from a JSON body with an integer client_id, with Cache-Control: no-store', async () => {
      const response = await t.http.post<Schemas['TokenResponseDto']>(TOKEN, {
        client_id: Number(BOOTSTRAP_ID),
        client_secret: BOOTSTRAP_SECRET,
        grant_type: 'client_credentials',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'admin orders platform',
      });
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect((await t.http.get('/authentication/me', { token: response.body.access_token })).status).toBe(200);
    });

    it('grants a token from a form-urlencoded body', async () => {
      const form = new URLSearchParams({ client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' });
      const response = await t.http.post<Schemas['TokenResponseDto']>(TOKEN, undefined, {
        raw: form.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.status).toBe(200);
      expect(response.body.token_type).toBe('Bearer');
    });

    it('grants a token from HTTP Basic credentials and ignores a bearer header', async () => {
      const basicOnly = await t.http.post(
        TOKEN,
        { grant_type: 'client_credentials' },
        { headers: { authorization: basic(BOOTSTRAP_ID, BOOTSTRAP_SECRET) } },
      );
      expect(basicOnly.status).toBe(200);
      const withBearer = await t.http.post(
        TOKEN,
        { client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' },
        { headers: { authorization: 'Bearer garbage' } },
      );
      expect(withBearer.status).toBe(200);
    });

    it('narrows the token to a requested scope and refuses a scope the client lacks', async () => {
      const client = await t.createClient(['orders']);
      const narrowed = await t.http.post<Schemas['TokenResponseDto']>(TOKEN, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_type: 'client_credentials',
        scope: 'orders',
      });
      expect(narrowed.body.scope).toBe('orders');
      const refused = await t.http.post<OAuthErrorBody>(TOKEN, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        grant_type: 'client_credentials',
        scope: 'admin',
      });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('invalid_scope');
    });

    it.each([
      ['no body', undefined, 400, 'invalid_request'],
      ['no grant_type', { client_id: 1001, client_secret: 'x' }, 400, 'invalid_request'],
      ['another grant type', { client_id: 1001, client_secret: 'x', grant_type: 'password' }, 400, 'unsupported_grant_type'],
      ['no client_secret', { client_id: 1001, grant_type: 'client_credentials' }, 400, 'invalid_request'],
      ['a non-numeric client_id', { client_id: 'abc', client_secret: 'x', grant_type: 'client_credentials' }, 400, 'invalid_request'],
      ['a wrong secret', { client_id: 1001, client_secret: 'wrong', grant_type: 'client_credentials' }, 401, 'invalid_client'],
      ['an unknown client', { client_id: 424242, client_secret: 'wrong', grant_type: 'client_credentials' }, 401, 'invalid_client'],
    ])('answers %s with the RFC 6749 error', async (_label, body, status, code) => {
      const response = await t.http.post<OAuthErrorBody>(TOKEN, body);
      expect(response.status).toBe(status);
      expect(response.body).toEqual({ error: code, error_description: expect.any(String) });
    });

    it('answers 401 invalid_client with a Basic challenge for wrong Basic credentials', async () => {
      const response = await t.http.post<OAuthErrorBody>(
        TOKEN,
        { grant_type: 'client_credentials' },
        { headers: { authorization: basic(BOOTSTRAP_ID, 'wrong') } },
      );
      expect(response.status).toBe(401);
      expect(response.body.error).toBe('invalid_client');
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
    });

    it('refuses credentials sent both as Basic and in the body', async () => {
      const response = await t.http.post<OAuthErrorBody>(
        TOKEN,
        { client_id: BOOTSTRAP_ID, client_secret: BOOTSTRAP_SECRET, grant_type: 'client_credentials' },
        { headers: { authorization: basic(BOOTSTRAP_ID, BOOTSTRAP_SECRET) } },
      );
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('invalid_request');
    });
  });

  describe('bearer tokens', () => {
    const ME = '/authentication/me';
    const now = () => Math.floor(Date.now() / 1000);
    const validClaims = () => ({
      sub: BOOTSTRAP_ID,
      scope: 'admin',
      iss: t.config.jwtIssuer,
      aud: t.config.jwtAudience,
      iat: now(),
      exp: now() + 600,
      jti: 'x',
    });

    it('accepts a well-formed token signed with the service key', async () => {
      expect((await t.http.get(ME, { token: forgeJwt(validClaims()) })).status).toBe(200);
    });

    it.each([
      ['no token', () => undefined],
      ['a garbage token', () => 'garbage'],
      ['an expired token', () => forgeJwt({ ...validClaims(), iat: now() - 7200, exp: now() - 3600 })],
      ['a token signed by another key', () => forgeJwt(validClaims(), { secret: 'another-key-another-key-another-key-000' })],
      ['an alg:none token', () => forgeJwt(validClaims(), { alg: 'none' })],
      ['a token for another audience', () => forgeJwt({ ...validClaims(), aud: 'someone-else' })],
    ])('answers 401 with WWW-Authenticate: Bearer for %s', async (_label, token) => {
      const response = await t.http.get(ME, { token: token() });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(response.body).toEqual({ message: expect.any(String), error: 'UNAUTHORIZED' });
    });

    it('answers 401 for a malformed Authorization header', async () => {
      const response = await t.http.get(ME, { headers: { authorization: 'Token abc' } });
      expect(response.status).toBe(401);
    });

    it('answers 401 once the client is deactivated', async () => {
      const client = await t.createClient(['admin']);
      const token = forgeJwt({ ...validClaims(), sub: client.clientId });
      await t.dataSource.getRepository(ApiClientEntity).update({ clientId: client.clientId }, { active: false });
      // The active flag is cached for a few seconds; a fresh client id is read from the database.
      const response = await t.http.get<ErrorBody>(ME, { token });
      expect(response.status).toBe(401);
      expect(response.body.message).toMatch(/not active/);
    });
  });

  describe('HTTP errors', () => {
    it('answers 400 for malformed JSON', async () => {
      const response = await t.http.post(LOGIN, undefined, { raw: '{"client_id": ', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'Malformed JSON body', error: 'VALIDATION_FAILED' });
    });

    it('answers 400 for an empty JSON body', async () => {
      const response = await t.http.post<ErrorBody>(LOGIN, undefined, { raw: '', headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
    });

    it('answers 400 for a prototype-pollution key', async () => {
      const response = await t.http.post<ErrorBody>(LOGIN, undefined, {
        raw: '{"client_id":"1","client_secret":"x","grant_type":"client_credentials","__proto__":{"admin":true}}',
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
    });

    it('answers 400 for JSON nested deeper than 64 levels (instead of overflowing a validator)', async () => {
      const response = await t.http.post<ErrorBody>(LOGIN, undefined, {
        // 4000 bytes: within the 4 KiB a credentials body may have.
        raw: `${'['.repeat(2000)}${']'.repeat(2000)}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ message: 'The JSON body nests deeper than 64 levels', error: 'VALIDATION_FAILED' });
    });

    it('answers 400 for a NUL character anywhere in a JSON body (PostgreSQL cannot store it)', async () => {
      const response = await t.http.post<ErrorBody>(LOGIN, {
        client_id: '1',
        client_secret: 'x',
        grant_type: 'client_credentials',
        nested: { note: 'a\u0000b' },
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/NUL character/);
    });

    it('answers 415 for a content type the route does not accept', async () => {
      const text = await t.http.post<ErrorBody>(LOGIN, undefined, { raw: 'hello', headers: { 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect(text.body.error).toBe('UNSUPPORTED_MEDIA_TYPE');
      // A form is read (the pickup tablet app logs in with one) and validated like JSON.
      const form = await t.http.post<ErrorBody>(LOGIN, undefined, {
        raw: 'a=b',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.status).toBe(400);
      expect(form.body.error).toBe('VALIDATION_FAILED');
    });

    it('answers 413 for a body over BODY_LIMIT_BYTES', async () => {
      const big = JSON.stringify({ client_id: '1', client_secret: 'x'.repeat(t.config.bodyLimitBytes), grant_type: 'client_credentials' });
      const response = await t.http.post<ErrorBody>(LOGIN, undefined, { raw: big, headers: { 'content-type': 'application/json' } });
      expect(response.status).toBe(413);
      expect(response.body.error).toBe('PAYLOAD_TOO_LARGE');
    });

    it('answers 404 in the admin-API error shape for an unknown route', async () => {
      const response = await t.http.get('/no/such/route');
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ message: expect.any(String), error: 'NOT_FOUND' });
    });

    it('answers unknown routes of the other families in their shapes', async () => {
      expect((await t.http.get('/api/order/nothing')).body).toEqual({
        error: 'No route GET /api/api/order/nothing',
        message: 'No route GET /api/api/order/nothing',
      });
      expect((await t.http.get('/domain-cliente/nothing')).body).toEqual({ error: 'not_found', error_description: expect.any(String) });
      expect((await t.http.get('/v3/channels-stores/nothing')).body).toEqual({ statusCode: '404', message: expect.any(String) });
    });

    it('echoes a sent x-request-id and makes one otherwise', async () => {
      const echoed = await t.http.get('/health/live', { headers: { 'x-request-id': 'trace-abc-123' } });
      expect(echoed.headers.get('x-request-id')).toBe('trace-abc-123');
      const made = await t.http.get('/health/live');
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const onError = await t.http.get('/no/such/route', { headers: { 'x-request-id': 'trace-err-1' } });
      expect(onError.headers.get('x-request-id')).toBe('trace-err-1');
    });

    it('replaces an unsafe x-request-id instead of echoing it', async () => {
      const response = await t.http.get('/health/live', { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(response.headers.get('x-request-id')).not.toBe('bad id with spaces');
    });
  });
});

describe('credential rate limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 with Retry-After past the limit, per route', async () => {
    const body = { client_id: '1', client_secret: 'x', grant_type: 'client_credentials' };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await t.http.post(LOGIN, body)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await t.http.post<ErrorBody>(LOGIN, body);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);

    const token = await t.http.post(TOKEN, { ...body, client_id: 1 });
    expect(token.status).toBe(401);
    for (let i = 0; i < 3; i++) await t.http.post(TOKEN, { ...body, client_id: 1 });
    const tokenLimited = await t.http.post<OAuthErrorBody>(TOKEN, { ...body, client_id: 1 });
    expect(tokenLimited.status).toBe(429);
    expect(tokenLimited.body.error).toBe('too_many_requests');
  });
});
