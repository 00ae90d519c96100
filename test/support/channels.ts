import { readFileSync } from 'node:fs';
import { SalesChannelEntity, SalesChannelRelatedListEntity } from '../../src/channels/sales-channel.entity.js';
import {
  StoreChannelEntity,
  StoreChannelScheduleEntity,
  StoreChannelScheduleGroupEntity,
  StoreEntity,
  StoreScheduleEntity,
  StoreServiceEntity,
} from '../../src/channels/store.entity.js';
import type { Schemas } from './api.js';
import type { HttpResponse } from './http.js';
import { bootTestApp, type TestApp } from './test-app.js';

/** The platform's stores and channels configuration (POST with HTTP Basic, GET with a bearer token). */
export const PATH = '/v3/channels-stores';
/** Every table the configuration is stored in, by its entity. */
const ENTITIES = {
  store: StoreEntity,
  store_service: StoreServiceEntity,
  store_schedule: StoreScheduleEntity,
  store_channel_schedule_group: StoreChannelScheduleGroupEntity,
  store_channel_schedule: StoreChannelScheduleEntity,
  store_channel: StoreChannelEntity,
  sales_channel: SalesChannelEntity,
  sales_channel_related_list: SalesChannelRelatedListEntity,
} as const;
export const CHILD_TABLES = Object.keys(ENTITIES) as Array<keyof typeof ENTITIES>;

/** The platform's own request, byte for byte as its sync service sends it. */
export const FIXTURE_URL = new URL('../fixtures/channels-stores.platform-request.json', import.meta.url);
export const readJson = (url: URL) => JSON.parse(readFileSync(url, 'utf8'));

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

/** A schema type that also takes properties it does not list, at every depth: the platform sends more than it documents. */
export type WithExtras<T> =
  T extends Array<infer Item>
    ? Array<WithExtras<Item>>
    : T extends object
      ? { [K in keyof T]: WithExtras<T[K]> } & Record<string, unknown>
      : T;
/** The configuration the platform POSTs, with the properties the spec does not list. */
export type ChannelsRequest = WithExtras<Schemas['ChannelsStoresRequestDto']>;
/** The configuration GET answers. */
export type ChannelsResponse = Schemas['ChannelsStoresResponseDto'];

/**
 * A request built like a real one: three stores, schedules for several channels, store-level
 * schedules, a channel with related lists, vendorId as text, shippingCost 1.9999, latitude as text,
 * and properties the spec does not list at several depths.
 */
export function richRequest(): ChannelsRequest {
  return {
    vendorId: '1350',
    syncId: 'sync-2025-11-21T10:00:00Z',
    stores: [
      {
        name: 'Pizzaria Bella Napoli - Pinheiros',
        active: true,
        storeId: '1201',
        vendorId: '1350',
        storeCode: 'BN-PIN',
        featured: true,
        services: [
          { name: 'DELIVERY', active: true },
          { name: 'PICKUP', active: false, code: 'PK' },
        ],
        schedules: [
          { day: 'MONDAY', startTime: '11:00', endTime: '23:00' },
          { day: 'SUNDAY', startTime: '18:00', endTime: '23:30' },
        ],
        schedulesByChannel: [
          {
            channelId: 'BN-APP',
            schedules: [
              { day: 'MONDAY', startTime: '11:00', endTime: '23:00' },
              { day: 'FRIDAY', startTime: '18:00', endTime: '02:00', note: 'past midnight' },
            ],
          },
          {
            channelId: 'BN-MARKETPLACE',
            schedules: [
              { day: 'SATURDAY', startTime: '11:00', endTime: '23:30' },
              { day: 'SPECIAL', startTime: '12:00', endTime: '16:00', startDate: '2025-12-25', endDate: '2025-12-25' },
            ],
          },
        ],
        taxesInfo: { taxRate: 9.25, vatRatePercentage: 18 },
        contactInfo: { phone: '+55 11 3061-0000', address: 'Rua dos Pinheiros, 1200 - Pinheiros, São Paulo - SP' },
        deliveryInfo: { cookTime: '35', deliveryId: '3', minimumOrder: '25.50', shippingCost: 1.9999, surge: { rain: 2 } },
        locationInfo: { city: 'São Paulo', latitude: '-23.5629', longitude: '-46.6826' },
        storeChannels: ['BN-APP', 'BN-MARKETPLACE'],
      },
      {
        name: 'Pizzaria Bella Napoli - Moema',
        active: false,
        storeId: 1202,
        vendorId: 1350,
        storeCode: 'BN-MOE',
        services: [{ name: 'DELIVERY', active: true }],
        schedules: [],
        schedulesByChannel: [{ channelId: 'BN-PHONE', schedules: [{ day: 'TUESDAY', startTime: '10:00', endTime: '15:00' }] }],
        taxesInfo: { taxRate: 0, vatRatePercentage: 12 },
        contactInfo: { phone: '+55 11 5051-0000', address: 'Av. Ibirapuera, 3000 - Moema, São Paulo - SP' },
        deliveryInfo: { cookTime: '40', deliveryId: 4, minimumOrder: '0', shippingCost: 0 },
        locationInfo: { city: 'São Paulo', latitude: '-23.6010', longitude: '-46.6650' },
        storeChannels: ['BN-PHONE'],
      },
      {
        name: 'Bella Napoli Express - Centro',
        active: true,
        storeId: '1203',
        vendorId: '1351',
        storeCode: 'BN-CEN',
        services: [],
        schedules: [{ day: 'WEDNESDAY', startTime: '07:00', endTime: '19:00' }],
        schedulesByChannel: [
          { channelId: 'BN-APP', schedules: [{ day: 'THURSDAY', startTime: '07:00', endTime: '19:00' }] },
          { channelId: 'BN-PHONE', schedules: [] },
        ],
        taxesInfo: { taxRate: 4.5, vatRatePercentage: 18 },
        contactInfo: { phone: '+55 11 3222-0000', address: 'Praça da Sé, 10 - Centro, São Paulo - SP' },
        deliveryInfo: { cookTime: '20', deliveryId: '5', minimumOrder: '15', shippingCost: '7.5' },
        locationInfo: { city: 'São Paulo', latitude: '-23.5505', longitude: '-46.6333' },
        storeChannels: ['BN-APP', 'BN-PHONE'],
      },
    ],
    channels: [
      {
        active: true,
        channel: 'App próprio',
        vendorId: '1350',
        channelId: 'BN-APP',
        channelReferenceName: 'Bella Napoli App',
        ecommerceChannelId: '7',
        additionalInfo: {
          mediaId: 'm-88',
          mediaName: 'app',
          theme: 'dark',
          relatedLists: [
            { listId: 'L-100', listName: 'Cardápio principal' },
            { listId: 'L-200', listName: 'Bebidas', position: 2 },
          ],
        },
      },
      {
        active: true,
        channel: 'Marketplace',
        vendorId: 1350,
        channelId: 'BN-MARKETPLACE',
        channelReferenceName: 'Marketplace',
        additionalInfo: { mediaId: 'm-90', mediaName: 'marketplace', relatedLists: [] },
      },
      {
        active: false,
        channel: 'Telefone',
        vendorId: '1351',
        channelId: 'BN-PHONE',
        channelReferenceName: 'Central telefônica',
        additionalInfo: { mediaId: 'm-91', mediaName: 'phone', relatedLists: [{ listId: 'L-300', listName: 'Promoções' }] },
      },
    ],
  };
}

/**
 * What GET answers for richRequest(), written out by hand: numbers as numbers, extra properties kept. It is the
 * request with those values changed, so it keeps the request's type (the extra properties are not in the answer's).
 */
export function richExpected(): ChannelsRequest {
  const expected = richRequest();
  const [pinheiros, moema, centro] = expected.stores;
  expected.stores = [
    { ...pinheiros, storeId: 1201, vendorId: 1350, fiscalGroupId: null, deliveryInfo: { ...pinheiros.deliveryInfo, deliveryId: 3 } },
    { ...moema, fiscalGroupId: null },
    {
      ...centro,
      storeId: 1203,
      vendorId: 1351,
      fiscalGroupId: null,
      deliveryInfo: { ...centro.deliveryInfo, deliveryId: 5, shippingCost: 7.5 },
    },
  ];
  const [app, marketplace, phone] = expected.channels;
  expected.channels = [{ ...app, vendorId: 1350 }, marketplace, { ...phone, vendorId: 1351 }];
  return expected;
}

/** A complete configuration in the form GET answers, different for each `n` (for the concurrency test). */
export function variant(n: number): ChannelsResponse {
  const channelIds = Array.from({ length: (n % 3) + 1 }, (_, index) => `V${n}-CH${index}`);
  return {
    stores: Array.from({ length: (n % 4) + 1 }, (_, index) => ({
      name: `Store ${n}.${index}`,
      active: index % 2 === 0,
      storeId: n * 100 + index,
      vendorId: 500 + n,
      storeCode: `S${n}-${index}`,
      services: Array.from({ length: index + 1 }, (_, s) => ({ name: `SERVICE-${n}-${s}`, active: s % 2 === 0 })),
      schedules: [{ day: 'MONDAY', startTime: `${String(n).padStart(2, '0')}:00`, endTime: '22:00' }],
      schedulesByChannel: channelIds.map((channelId, c) => ({
        channelId,
        schedules: [{ day: 'SATURDAY', startTime: '10:00', endTime: `2${c}:${String(n).padStart(2, '0')}` }],
      })),
      taxesInfo: { taxRate: n, vatRatePercentage: 10 + index },
      contactInfo: { phone: `+55 11 ${n}000-000${index}`, address: `Rua ${n}, ${index}` },
      deliveryInfo: { cookTime: String(10 + n), deliveryId: n, minimumOrder: `${n}.50`, shippingCost: Number(`${n}.9999`) },
      locationInfo: { city: `City ${n}`, latitude: `-2${n % 10}.5`, longitude: `-4${n % 10}.25` },
      storeChannels: channelIds,
      fiscalGroupId: null,
    })),
    channels: channelIds.map((channelId, c) => ({
      active: true,
      channel: `Channel ${n}.${c}`,
      vendorId: 500 + n,
      channelId,
      channelReferenceName: `Ref ${n}.${c}`,
      additionalInfo: { mediaId: `m-${n}`, mediaName: `media ${n}`, relatedLists: [{ listId: `L-${n}-${c}`, listName: `List ${n}` }] },
    })),
  };
}

export interface ChannelsApp {
  t: TestApp;
  /** HTTP Basic credentials of a client with the scope admin (the platform's sync client). */
  admin: string;
  /** A bearer token with the scope admin, for GET. */
  bearer: string;
}

export async function bootChannelsApp(): Promise<ChannelsApp> {
  // Many POSTs from one address: the credential rate limit is raised for these files.
  const t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  const client = await t.createClient(['admin'], 'platform sync');
  return { t, admin: basic(client.clientId, client.clientSecret), bearer: await t.tokenFor(['admin']) };
}

/** What a POST (sent raw: the tests send bodies outside the schema) answers: the fresh token, or the channel-configuration error body. */
export type ChannelsAnswer = Partial<Schemas['ChannelsStoresReplacedDto'] & Schemas['ChannelErrorResponseDto']>;

/** The channel-configuration error body: `{ statusCode: "<status>", message }` and nothing else. */
export function expectError(response: HttpResponse<ChannelsAnswer>, status: number): void {
  expect({ status: response.status, keys: Object.keys(response.body).sort() }).toEqual({ status, keys: ['message', 'statusCode'] });
  expect(response.body.statusCode).toBe(String(status));
  expect(typeof response.body.message).toBe('string');
}

/** The calls the tests repeat. `app` is called when a step runs, so the steps can be made at collection time. */
export function channelsSteps(app: () => ChannelsApp) {
  return {
    /** `null`: no Authorization header. */
    post: (body: unknown, authorization: string | null = app().admin) =>
      app().t.http.post<ChannelsAnswer>(PATH, body, { headers: authorization ? { authorization } : {} }),
    /** The current configuration, through GET. */
    read: async () => {
      // Read with the raw client, typed as documented: its JSON.parse builds the objects in the test's own realm,
      // which the variant comparison (isDeepStrictEqual, prototypes included) needs.
      const response = await app().t.http.get<ChannelsResponse>(PATH, { token: app().bearer });
      expect(response.status).toBe(200);
      return response.body;
    },
    /** Rows per table of the configuration. */
    counts: async () => {
      const result: Record<string, number> = {};
      for (const table of CHILD_TABLES) result[table] = await app().t.dataSource.getRepository(ENTITIES[table]).count();
      return result;
    },
  };
}
