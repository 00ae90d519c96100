import { bootTestApp, type TestApp } from '../support/test-app.js';
import { originOf } from '../support/console-browser.js';

/** How the service serves the admin console's files, without a browser (the browser tests are in test/browser/). */
describe('the admin console is served at /console/ (e2e)', () => {
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
  });
  afterAll(() => t?.close());

  it('answers every path under /console/ with the app, never cached, under the CSP', async () => {
    for (const path of ['/console/', '/console/orders/4b1f0f3e-0000-4000-8000-000000000000', '/console/fiscal-groups/new?storeId=7']) {
      const response = await fetch(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      const html = await response.text();
      expect(html).toMatch(/<div id="root"><\/div>/);
      // No inline script: the CSP would refuse it.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves the hashed assets for a year and redirects /console to /console/', async () => {
    const html = await (await fetch(`${origin}/console/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const response = await fetch(`${origin}${asset}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // Read the body: an unread large asset keeps its connection busy and the server's close waits for it.
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const missing = await fetch(`${origin}/console/assets/not-there-0000.js`);
    expect(missing.status).toBe(404);
    await missing.text();

    const bare = await fetch(`${origin}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
    await bare.text();
  });

  it('is public: the app signs in against the API, which stays closed without a token', async () => {
    const app = await fetch(`${origin}/console/orders`);
    expect(app.status).toBe(200);
    await app.text();
    expect((await fetch(`${origin}/api/admin/orders`)).status).toBe(401);
  });
});
