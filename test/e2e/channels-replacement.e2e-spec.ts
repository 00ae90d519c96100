import { isDeepStrictEqual } from 'node:util';
import { Not } from 'typeorm';
import { SalesChannelRelatedListEntity } from '../../src/channels/sales-channel.entity.js';
import { StoreChannelEntity, StoreChannelScheduleGroupEntity } from '../../src/channels/store.entity.js';
import { bootChannelsApp, channelsSteps, CHILD_TABLES, expectError, richRequest, variant, type ChannelsApp } from '../support/channels.js';
import type { TestApp } from '../support/test-app.js';

describe('stores and sales channels (e2e)', () => {
  let app: ChannelsApp;
  let t: TestApp;
  const { post, read, counts } = channelsSteps(() => app);

  beforeAll(async () => {
    app = await bootChannelsApp();
    ({ t } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('deletes the stores and channels not sent, with everything hanging off them', async () => {
    expect((await post(richRequest())).status).toBe(200);
    expect(await counts()).toEqual({
      store: 3,
      store_service: 3,
      store_schedule: 3,
      store_channel_schedule_group: 5,
      store_channel_schedule: 6,
      store_channel: 5,
      sales_channel: 3,
      sales_channel_related_list: 3,
    });

    // Keep one store (with less) and one channel; 1202, 1203, BN-MARKETPLACE and BN-PHONE go.
    const smaller = richRequest();
    smaller.stores = [smaller.stores[0]];
    smaller.stores[0].services = [{ name: 'DELIVERY', active: true }];
    smaller.stores[0].schedulesByChannel = smaller.stores[0].schedulesByChannel?.slice(0, 1);
    smaller.stores[0].storeChannels = ['BN-APP'];
    smaller.channels = [smaller.channels[0]];
    expect((await post(smaller)).status).toBe(200);

    const after = await read();
    expect(after.stores.map((store) => store.storeId)).toEqual([1201]);
    expect(after.channels.map((channel) => channel.channelId)).toEqual(['BN-APP']);
    expect(after.stores[0].services).toEqual([{ name: 'DELIVERY', active: true }]);
    expect(after.stores[0].schedulesByChannel.map((group) => group.channelId)).toEqual(['BN-APP']);
    expect(await counts()).toEqual({
      store: 1,
      store_service: 1,
      store_schedule: 2,
      store_channel_schedule_group: 1,
      store_channel_schedule: 2,
      store_channel: 1,
      sales_channel: 1,
      sales_channel_related_list: 2,
    });
    const notTheKeptLink = [{ storeId: Not('1201') }, { channelId: Not('BN-APP') }];
    const leftovers = [
      ...(await t.dataSource.getRepository(StoreChannelEntity).findBy(notTheKeptLink)),
      ...(await t.dataSource.getRepository(StoreChannelScheduleGroupEntity).findBy(notTheKeptLink)),
      ...(await t.dataSource.getRepository(SalesChannelRelatedListEntity).findBy({ channelId: Not('BN-APP') })),
    ];
    expect(leftovers).toEqual([]);

    // An empty configuration empties every table.
    expect((await post({ stores: [], channels: [] })).status).toBe(200);
    expect(await read()).toEqual({ stores: [], channels: [] });
    expect(Object.values(await counts())).toEqual(CHILD_TABLES.map(() => 0));
  });

  it('changes nothing when one reference is bad', async () => {
    expect((await post(richRequest())).status).toBe(200);
    const before = await read();
    const countsBefore = await counts();

    const bad = richRequest();
    bad.stores.pop(); // would delete a store...
    bad.channels[0].channel = 'Renamed'; // ...rename a channel...
    bad.stores[1].storeChannels?.push('BN-DELIVERY'); // ...but one reference names no channel of the request
    const response = await post(bad);
    expectError(response, 400);
    expect(response.body.message).toContain(`stores[1].storeChannels[1]: channel "BN-DELIVERY" is not in this request's channels`);

    expect(await read()).toEqual(before);
    expect(await counts()).toEqual(countsBefore);
  });

  it('ends 10 concurrent replacements in exactly one of them, never a mix', async () => {
    const variants = Array.from({ length: 10 }, (_, n) => variant(n + 1));
    const responses = await Promise.all(variants.map((body) => post(body)));
    expect(responses.map((response) => response.status)).toEqual(variants.map(() => 200));

    const current = await read();
    const matches = variants.filter((candidate) => isDeepStrictEqual(candidate, current));
    expect(matches).toHaveLength(1);
    // And the tables hold that one configuration only.
    const [winner] = matches;
    const stored = await counts();
    expect(stored.store).toBe(winner.stores.length);
    expect(stored.sales_channel).toBe(winner.channels.length);
    expect(stored.store_service).toBe(winner.stores.reduce((sum, store) => sum + store.services.length, 0));
    expect(stored.store_channel).toBe(winner.stores.length * winner.channels.length);
  });
});
