import { isPlainObject } from '../../common/plain-object.js';
import type { JsonObject, JsonValue } from '../channels-stores.types.js';
import type { ChannelStoreConfigEntity } from '../channel-store-config.entity.js';
import type { SalesChannelEntity, SalesChannelRelatedListEntity } from '../sales-channel.entity.js';
import type {
  StoreChannelEntity,
  StoreChannelScheduleEntity,
  StoreChannelScheduleGroupEntity,
  StoreEntity,
  StoreScheduleEntity,
  StoreServiceEntity,
} from '../store.entity.js';
import type {
  ChannelResponseDto,
  ChannelsStoresResponseDto,
  ScheduleResponseDto,
  StoreResponseDto,
} from './channels-stores-response.dto.js';

/** Every row of the configuration, each list in request order. */
export interface ConfigurationRows {
  config: ChannelStoreConfigEntity | null;
  channels: SalesChannelEntity[];
  relatedLists: SalesChannelRelatedListEntity[];
  stores: StoreEntity[];
  services: StoreServiceEntity[];
  storeSchedules: StoreScheduleEntity[];
  scheduleGroups: StoreChannelScheduleGroupEntity[];
  channelSchedules: StoreChannelScheduleEntity[];
  storeChannels: StoreChannelEntity[];
}

/** The stored configuration in the request's shape, with the kept unknown properties merged back. */
export function toChannelsStoresResponse(rows: ConfigurationRows, fiscalGroups: Map<string, string>): ChannelsStoresResponseDto {
  const relatedLists = groupBy(rows.relatedLists, (list) => list.channelId);
  const services = groupBy(rows.services, (service) => service.storeId);
  const storeSchedules = groupBy(rows.storeSchedules, (schedule) => schedule.storeId);
  const scheduleGroups = groupBy(rows.scheduleGroups, (group) => group.storeId);
  const channelSchedules = groupBy(rows.channelSchedules, (schedule) => `${schedule.storeId}/${schedule.groupOrdinal}`);
  const storeChannels = groupBy(rows.storeChannels, (link) => link.storeId);

  const channels = rows.channels.map((channel): ChannelResponseDto =>
    withExtra(
      {
        active: channel.active,
        channel: channel.channel,
        vendorId: toNumber(channel.vendorId),
        channelId: channel.channelId,
        channelReferenceName: channel.channelReferenceName,
        additionalInfo: {
          mediaId: channel.mediaId,
          mediaName: channel.mediaName,
          relatedLists: (relatedLists.get(channel.channelId) ?? []).map((list) => ({ listId: list.listId, listName: list.listName })),
        },
      },
      channel.extra,
    ),
  );

  const stores = rows.stores.map((store): StoreResponseDto =>
    withExtra(
      {
        name: store.name,
        active: store.active,
        storeId: Number(store.storeId),
        vendorId: toNumber(store.vendorId),
        storeCode: store.storeCode,
        services: (services.get(store.storeId) ?? []).map((service) => ({ name: service.name, active: service.active })),
        schedules: (storeSchedules.get(store.storeId) ?? []).map(toSchedule),
        schedulesByChannel: (scheduleGroups.get(store.storeId) ?? []).map((group) => ({
          channelId: group.channelId,
          schedules: (channelSchedules.get(`${group.storeId}/${group.ordinal}`) ?? []).map(toSchedule),
        })),
        taxesInfo: { taxRate: toNumber(store.taxRate), vatRatePercentage: toNumber(store.vatRatePercentage) },
        contactInfo: { phone: store.phone, address: store.address },
        deliveryInfo: {
          cookTime: store.cookTime,
          deliveryId: toNumber(store.deliveryId),
          minimumOrder: store.minimumOrder,
          shippingCost: toNumber(store.shippingCost),
        },
        locationInfo: { city: store.city, latitude: store.latitude, longitude: store.longitude },
        storeChannels: (storeChannels.get(store.storeId) ?? []).map((link) => link.channelId),
        fiscalGroupId: fiscalGroups.get(store.storeId) ?? null,
      },
      store.extra,
    ),
  );

  return withExtra({ stores, channels }, rows.config?.extra ?? {});
}

function toSchedule(schedule: StoreScheduleEntity | StoreChannelScheduleEntity): ScheduleResponseDto {
  const entry: ScheduleResponseDto = { day: schedule.day, startTime: schedule.startTime, endTime: schedule.endTime };
  if (schedule.day === 'SPECIAL') {
    entry.startDate = schedule.startDate;
    entry.endDate = schedule.endDate;
  }
  return entry;
}

/** bigint and numeric columns arrive as text; the API answers JSON numbers. */
function toNumber(value: string | null): number | null {
  return value === null ? null : Number(value);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/**
 * Merges the kept unknown properties into the built object: new keys are added, nested objects
 * are merged, arrays are merged item by item (the parser kept them by position).
 */
export function withExtra<T extends object>(target: T, extra: JsonObject): T {
  mergeInto(target as Record<string, unknown>, extra);
  return target;
}

function mergeInto(target: Record<string, unknown>, extra: JsonObject): void {
  for (const [key, value] of Object.entries(extra)) {
    const current = target[key];
    if (!Object.hasOwn(target, key)) target[key] = value;
    else if (isPlainObject(current) && isPlainObject(value)) mergeInto(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) {
      value.forEach((item: JsonValue, index) => {
        const into = current[index] as unknown;
        if (isPlainObject(into) && isPlainObject(item)) mergeInto(into, item);
      });
    }
  }
}
