import { readFileSync } from 'node:fs';
import { bootTestApp, BOOTSTRAP_ID, type TestApp } from '../support/test-app.js';
import { documentedOperations, expectErrorShape, loadCommittedOpenApi } from '../support/openapi-routes.js';
import { forgeJwt } from '../support/tokens.js';

describe('OpenAPI document (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the same document as the committed openapi.json (run `npm run openapi:write` after an API change)', async () => {
    const served = await t.http.get('/docs-json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(loadCommittedOpenApi());
  });

  it('serves the Swagger UI at /api/docs without a token', async () => {
    const page = await t.http.get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
  });

  it('gives the API the version of the package', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(loadCommittedOpenApi().info.version).toBe(pkg.version);
  });

  it('declares the bearer and basic security schemes', () => {
    const schemes = loadCommittedOpenApi().components.securitySchemes;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
  });

  it('gives every operation a summary, a tag and at least one documented success response', () => {
    for (const { method, template, operation } of documentedOperations()) {
      const label = `${method} ${template}`;
      expect([label, typeof operation.summary]).toEqual([label, 'string']);
      expect([label, (operation.tags?.length ?? 0) > 0]).toEqual([label, true]);
      // A browser navigation (single sign-on) succeeds with a redirect.
      const successes = Object.keys(operation.responses).filter((status) => /^2/.test(status) || status === '302');
      expect([label, successes.length > 0]).toEqual([label, true]);
    }
  });

  it('types counts, pages and token lifetimes as integers, as the interface does', () => {
    const document = loadCommittedOpenApi();
    const integers: Record<string, string[]> = {
      TokenResponseDto: ['expires_in'],
      LoginResponseDto: ['expiresIn'],
      InfoPaymentsResponseDto: ['total', 'page', 'pageSize'],
      OrderPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      FiscalGroupPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      FiscalGroupRevisionPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      ClientPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      UserPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      AuditEventPageDto: ['total', 'page', 'pageSize', 'totalPages'],
      ProductCategoryHistoryPageDto: ['total', 'page', 'pageSize', 'totalPages'],
    };
    for (const [schema, properties] of Object.entries(integers)) {
      for (const name of properties) {
        expect([schema, name, document.components.schemas[schema]?.properties?.[name]?.type]).toEqual([schema, name, 'integer']);
      }
    }
    for (const { method, template, operation } of documentedOperations(document)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'query' || !['page', 'pageSize'].includes(parameter.name)) continue;
        expect([method, template, parameter.name, parameter.schema?.type]).toEqual([method, template, parameter.name, 'integer']);
      }
    }
  });
});

describe('the statuses any request can meet (e2e)', () => {
  it('are documented on every operation: 500 and 503, and 413 and 415 when it takes a body, each 503 of a family with Retry-After', () => {
    const missing: string[] = [];
    for (const { method, template, operation } of documentedOperations()) {
      const expected = operation.requestBody ? ['413', '415', '500', '503'] : ['500', '503'];
      for (const status of expected) if (!(status in operation.responses)) missing.push(`${method} ${template} ${status}`);
      const unavailable = operation.responses['503'];
      const schema: string | undefined = unavailable?.content?.['application/json']?.schema?.$ref;
      if (schema && /ErrorResponseDto$/.test(schema) && !unavailable.headers?.['Retry-After'])
        missing.push(`${method} ${template} 503 Retry-After`);
    }
    expect(missing).toEqual([]);
  });
});

describe('every protected route of the OpenAPI document refuses bad tokens (e2e)', () => {
  let t: TestApp;
  const operations = documentedOperations().filter((operation) => operation.protectedByBearer);
  const now = () => Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('has protected routes to check', () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  const badTokens: Array<[string, () => string | undefined]> = [
    ['no token', () => undefined],
    ['a garbage token', () => 'not.a.token'],
    [
      'an expired token',
      () =>
        forgeJwt({
          sub: BOOTSTRAP_ID,
          scope: 'admin orders platform',
          iss: t.config.jwtIssuer,
          aud: t.config.jwtAudience,
          iat: now() - 7200,
          exp: now() - 60,
        }),
    ],
    [
      'an alg:none token',
      () =>
        forgeJwt(
          {
            sub: BOOTSTRAP_ID,
            scope: 'admin orders platform',
            iss: t.config.jwtIssuer,
            aud: t.config.jwtAudience,
            iat: now(),
            exp: now() + 600,
          },
          { alg: 'none' },
        ),
    ],
    [
      'a token signed by another key',
      () =>
        forgeJwt(
          {
            sub: BOOTSTRAP_ID,
            scope: 'admin orders platform',
            iss: t.config.jwtIssuer,
            aud: t.config.jwtAudience,
            iat: now(),
            exp: now() + 600,
          },
          { secret: 'some-other-signing-key-some-other-signing-key' },
        ),
    ],
  ];

  it.each(badTokens)('answers 401 in the family shape with %s', async (_label, makeToken) => {
    const failures: string[] = [];
    for (const route of operations) {
      const response = await t.http.request(route.method, route.path, ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined, {
        token: makeToken(),
      });
      if (response.status !== 401) failures.push(`${route.method} ${route.template} answered ${response.status}`);
      else expectErrorShape(route.family, response.body);
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 to a valid token without the required scope', async () => {
    const scoped = operations.filter((route) => route.requiredScopes.length > 0);
    expect(scoped.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const route of scoped) {
      const others = (['admin', 'orders', 'platform'] as const).filter((scope) => !route.requiredScopes.includes(scope));
      const token = await t.tokenFor(others);
      const response = await t.http.request(route.method, route.path, ['POST', 'PUT', 'PATCH'].includes(route.method) ? {} : undefined, {
        token,
      });
      if (response.status !== 403) failures.push(`${route.method} ${route.template} answered ${response.status}`);
      else expectErrorShape(route.family, response.body);
    }
    expect(failures).toEqual([]);
  });
});
