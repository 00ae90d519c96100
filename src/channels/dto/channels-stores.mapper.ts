import type { ReceivedBody } from '../../common/http/open-body.js';
import { isPlainObject } from '../../common/plain-object.js';
import type { JsonObject, JsonValue, ParsedChannel, ParsedConfiguration, ParsedSchedule, ParsedStore } from '../channels-stores.types.js';
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
import type { ChannelDto, ChannelsStoresRequestDto, ScheduleDto, StoreDto } from './channels-stores-request.dto.js';
import { decimalText, integerText, scheduleDay } from './channels-stores.validators.js';

/**
 * A validated request as the rows to write: integers as digit text (bigint columns), decimals as
 * decimal text (numeric columns), days upper-case, times `HH:MM`, absent and null fields null, and
 * the properties the DTO does not declare kept with the top level, the store or the channel they
 * were sent in.
 */
export function toParsedConfiguration({ fields, extra }: ReceivedBody<ChannelsStoresRequestDto>): ParsedConfiguration {
  const { stores: storeExtras, channels: channelExtras, ...topLevel } = extra ?? {};
  const extraOf = (list: unknown, index: number) => ((Array.isArray(list) ? list[index] : null) ?? {}) as JsonObject;
  return {
    stores: fields.stores.map((store, index) => toParsedStore(store, extraOf(storeExtras, index))),
    channels: fields.channels.map((channel, index) => toParsedChannel(channel, extraOf(channelExtras, index))),
    extra: topLevel as JsonObject,
  };
}

function toParsedStore(store: StoreDto, extra: JsonObject): ParsedStore {
  const { taxesInfo, contactInfo, deliveryInfo, locationInfo } = store;
  return {
    storeId: integerText(store.storeId)!,
    name: store.name ?? null,
    active: store.active ?? null,
    vendorId: integerText(store.vendorId) ?? null,
    storeCode: store.storeCode ?? null,
    services: (store.services ?? []).map((service) => ({ name: service.name, active: service.active ?? null })),
    schedules: (store.schedules ?? []).map(toParsedSchedule),
    schedulesByChannel: (store.schedulesByChannel ?? []).map((group) => ({
      channelId: group.channelId,
      schedules: (group.schedules ?? []).map(toParsedSchedule),
    })),
    taxRate: decimalText(taxesInfo?.taxRate) ?? null,
    vatRatePercentage: decimalText(taxesInfo?.vatRatePercentage) ?? null,
    phone: contactInfo?.phone ?? null,
    address: contactInfo?.address ?? null,
    cookTime: deliveryInfo?.cookTime === undefined || deliveryInfo.cookTime === null ? null : String(deliveryInfo.cookTime),
    deliveryId: integerText(deliveryInfo?.deliveryId) ?? null,
    minimumOrder: decimalText(deliveryInfo?.minimumOrder) ?? null,
    shippingCost: decimalText(deliveryInfo?.shippingCost) ?? null,
    city: locationInfo?.city ?? null,
    latitude: locationInfo?.latitude ?? null,
    longitude: locationInfo?.longitude ?? null,
    storeChannels: store.storeChannels ?? [],
    extra,
  };
}

function toParsedChannel(channel: ChannelDto, extra: JsonObject): ParsedChannel {
  const info = channel.additionalInfo;
  return {
    channelId: channel.channelId,
    active: channel.active ?? null,
    channel: channel.channel ?? null,
    vendorId: integerText(channel.vendorId) ?? null,
    channelReferenceName: channel.channelReferenceName ?? null,
    mediaId: info?.mediaId ?? null,
    mediaName: info?.mediaName ?? null,
    relatedLists: (info?.relatedLists ?? []).map((list) => ({ listId: list.listId, listName: list.listName ?? null })),
    extra,
  };
}

function toParsedSchedule(schedule: ScheduleDto): ParsedSchedule {
  return {
    day: scheduleDay(schedule.day)!,
    startTime: schedule.startTime.padStart(5, '0'),
    endTime: schedule.endTime.padStart(5, '0'),
    startDate: schedule.startDate ?? null,
    endDate: schedule.endDate ?? null,
  };
}

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
 * are merged, arrays are merged item by item (they were kept by position).
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
