import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { failed, ok } from '../support/api.js';
import {
  bootChannelsApp,
  channelsSteps,
  richRequest,
  type ChannelsApp,
  type ChannelsRequest,
  type ChannelsResponse,
} from '../support/channels.js';
import { asPerson, signIn } from '../support/people.js';
import type { TestApp } from '../support/test-app.js';

/**
 * What the console's editor sends back: the stored configuration without each store's derived fiscal group. The GET
 * answers null for a field never sent, which the request takes back as "not sent".
 */
function editable(configuration: ChannelsResponse) {
  return { ...configuration, stores: configuration.stores.map(({ fiscalGroupId: _derived, ...store }) => store) };
}
const asRequest = (body: ReturnType<typeof editable>) => body as unknown as ChannelsRequest;

/**
 * The console replaces the store and channel configuration through PUT /api/admin/channels-stores: the same
 * replacement as the platform's POST (which takes HTTP Basic client credentials), for people of role admin.
 */
describe('PUT /api/admin/channels-stores (e2e)', () => {
  let app: ChannelsApp;
  let t: TestApp;
  const { post, read } = channelsSteps(() => app);
  const replacements = () => t.dataSource.getRepository(AuditEventEntity).countBy({ targetType: 'channel-configuration' });

  beforeAll(async () => {
    app = await bootChannelsApp();
    t = app.t;
    expect((await post(richRequest())).status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  it('takes back what GET answered, edited, and answers the configuration as stored', async () => {
    const before = await read();
    const edited = editable(before);
    edited.stores[0]!.name = 'Renamed in the console';
    const events = await replacements();

    const answer = ok(await t.api.PUT('/api/admin/channels-stores', { body: asRequest(edited) }), 200);

    expect(answer.stores[0]!.name).toBe('Renamed in the console');
    expect(await read()).toEqual(answer);
    expect(await replacements()).toBe(events + 1);
  });

  it('a person of role admin may, through the session and its CSRF token', async () => {
    const person = await signIn(t.http, 'admin@example.com', 'dev-admin-password');
    const edited = editable(await read());
    edited.channels = edited.channels.slice(0, 1);
    edited.stores = edited.stores.map((store) => ({
      ...store,
      storeChannels: store.storeChannels.filter((id) => id === edited.channels[0]!.channelId),
      schedulesByChannel: store.schedulesByChannel.filter((entry) => entry.channelId === edited.channels[0]!.channelId),
    }));

    const answer = await t.http.put<ChannelsResponse>('/admin/channels-stores', edited, asPerson(person));

    expect(answer.status).toBe(200);
    expect(answer.body.channels.map((channel) => channel.channelId)).toEqual([edited.channels[0]!.channelId]);
  });

  it('refuses a body with problems with one 400 naming each, and changes nothing', async () => {
    const before = await read();
    const broken = editable(before);
    broken.stores[0]!.storeChannels = ['NO-SUCH-CHANNEL'];

    const refusal = failed(await t.api.PUT('/api/admin/channels-stores', { body: asRequest(broken) }), 400);

    expect(refusal).toMatchObject({ error: 'VALIDATION_FAILED' });
    expect(JSON.stringify(refusal)).toContain('NO-SUCH-CHANNEL');
    expect(await read()).toEqual(before);
  });

  it('is refused without a session or token, to a client without the scope admin, and to HTTP Basic', async () => {
    const body = editable(await read());
    expect((await t.http.put('/admin/channels-stores', body)).status).toBe(401);
    expect((await t.http.put('/admin/channels-stores', body, { token: await t.tokenFor(['orders']) })).status).toBe(403);
    expect((await t.http.put('/admin/channels-stores', body, { headers: { authorization: app.admin } })).status).toBe(401);
  });
});
