import { basic, bootChannelsApp, channelsSteps, expectError, PATH, variant, type ChannelsApp } from '../support/channels.js';
import type { TestApp } from '../support/test-app.js';

describe('stores and sales channels (e2e)', () => {
  let app: ChannelsApp;
  let t: TestApp;
  let admin: string;
  const { post, read } = channelsSteps(() => app);

  beforeAll(async () => {
    app = await bootChannelsApp();
    ({ t, admin } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('authentication', () => {
    it('POST answers 401 in the channel-configuration error shape without credentials, before looking at the body', async () => {
      const response = await post({ not: 'valid' }, null);
      expectError(response, 401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Basic/);
      expect(response.body.message).toContain('HTTP Basic');
    });

    it('POST answers 401 with a wrong secret or an unknown client, and with a bearer token alone', async () => {
      const client = await t.createClient(['admin']);
      const before = await read();
      for (const authorization of [
        basic(client.clientId, 'not-the-secret'),
        basic('987654', client.clientSecret),
        `Bearer ${await t.adminToken()}`,
        'Basic !!!',
      ]) {
        const response = await post(variant(1), authorization);
        expectError(response, 401);
      }
      expect(await read()).toEqual(before);
    });

    it('POST answers 403 in the channel-configuration error shape to a client without the scope admin', async () => {
      const client = await t.createClient(['orders', 'platform']);
      const before = await read();
      const response = await post(variant(2), basic(client.clientId, client.clientSecret));
      expectError(response, 403);
      expect(response.body.message).toContain('admin');
      expect(await read()).toEqual(before);
    });

    it('GET needs a bearer token with the scope admin', async () => {
      expectError(await t.http.get(PATH), 401);
      expectError(await t.http.get(PATH, { headers: { authorization: admin } }), 401);
      expectError(await t.http.get(PATH, { token: await t.tokenFor(['orders']) }), 403);
    });
  });
});
