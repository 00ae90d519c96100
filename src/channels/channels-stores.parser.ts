import { Decimal } from 'decimal.js';
import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { ISO_DATE_RULE, isIsoDate } from '../common/iso-date-time.js';
import {
  type JsonObject,
  type JsonValue,
  type ParsedChannel,
  type ParsedConfiguration,
  type ParsedSchedule,
  type ParsedStore,
  SCHEDULE_DAYS,
  type ScheduleDay,
} from './channels-stores.types.js';

type Source = Record<string, unknown>;

const ID_MAX_LENGTH = 100;
const TEXT_MAX_LENGTH = 1000;
const INTEGER_TEXT = /^\d{1,16}$/;
const DECIMAL_TEXT = /^[+-]?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const TIME_PROBLEM = 'must be a time H:MM or HH:MM from 0:00 to 23:59';

const STORE_KEYS = [
  'name',
  'active',
  'storeId',
  'vendorId',
  'storeCode',
  'services',
  'schedules',
  'schedulesByChannel',
  'taxesInfo',
  'contactInfo',
  'deliveryInfo',
  'locationInfo',
  'storeChannels',
  'fiscalGroupId',
];
const CHANNEL_KEYS = ['active', 'channel', 'vendorId', 'channelId', 'channelReferenceName', 'additionalInfo'];

/**
 * Validates a `POST /v3/channels-stores` body (contract §9) and collects every problem, so that one
 * 400 names them all. Numbers sent as numeric text are accepted where the spec says integer or number.
 * Properties the spec does not list are kept, at any depth, in the `extra` tree of the top level, the
 * store or the channel they were sent in.
 */
export function parseChannelsStores(body: unknown): ParsedConfiguration {
  const parser = new ConfigurationParser();
  const parsed = parser.configuration(body);
  if (parser.problems.length > 0 || !parsed) throw ApiError.validation(parser.problems);
  return parsed;
}

class ConfigurationParser {
  readonly problems: ErrorDetail[] = [];

  configuration(body: unknown): ParsedConfiguration | undefined {
    if (!isObject(body)) {
      this.problem('body', 'must be a JSON object with `stores` and `channels` arrays');
      return undefined;
    }
    const rawChannels = this.list(body.channels, 'channels', true);
    const rawStores = this.list(body.stores, 'stores', true);
    // Ids as sent, so that a channel failing validation for another reason is still a valid reference.
    const channelIds = rawChannels.map((item) => (isObject(item) && typeof item.channelId === 'string' ? item.channelId : undefined));
    this.checkUnique(channelIds, 'channels', 'channelId', (id) => `"${id}"`);
    this.checkUnique(
      rawStores.map((item) => (isObject(item) ? integerText(item.storeId) : undefined)),
      'stores',
      'storeId',
      (id) => id,
    );
    const sent = new Set(channelIds.filter(isDefined));
    const channels = rawChannels.map((item, index) => this.channel(item, `channels[${index}]`));
    const stores = rawStores.map((item, index) => this.store(item, `stores[${index}]`, sent));
    return {
      stores: stores.filter(isDefined),
      channels: channels.filter(isDefined),
      extra: unknownProperties(body, ['stores', 'channels']),
    };
  }

  private checkUnique(ids: Array<string | undefined>, list: string, field: string, show: (id: string) => string): void {
    const first = new Map<string, number>();
    ids.forEach((id, index) => {
      if (id === undefined) return;
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, index);
      else this.problem(`${list}[${index}].${field}`, `duplicate ${field} ${show(id)} (also ${list}[${earlier}])`);
    });
  }

  private store(value: unknown, path: string, channelIds: Set<string>): ParsedStore | undefined {
    if (!isObject(value)) {
      this.problem(path, 'must be an object');
      return undefined;
    }
    const before = this.problems.length;
    const extra = unknownProperties(value, STORE_KEYS);
    const storeId = this.integer(value.storeId, `${path}.storeId`, true);

    const services = this.list(value.services, `${path}.services`).map((item, index) => {
      const at = `${path}.services[${index}]`;
      if (!isObject(item)) return this.problem(at, 'must be an object');
      return {
        name: this.text(item.name, `${at}.name`, { required: true }) ?? '',
        active: this.boolean(item.active, `${at}.active`),
        extra: unknownProperties(item, ['name', 'active']),
      };
    });
    const schedules = this.list(value.schedules, `${path}.schedules`).map((item, index) =>
      this.schedule(item, `${path}.schedules[${index}]`),
    );
    const schedulesByChannel = this.list(value.schedulesByChannel, `${path}.schedulesByChannel`).map((item, index) => {
      const at = `${path}.schedulesByChannel[${index}]`;
      if (!isObject(item)) return this.problem(at, 'must be an object');
      const entries = this.list(item.schedules, `${at}.schedules`).map((entry, position) =>
        this.schedule(entry, `${at}.schedules[${position}]`),
      );
      return {
        channelId: this.text(item.channelId, `${at}.channelId`, { required: true, max: ID_MAX_LENGTH }) ?? '',
        schedules: entries,
        extra: withNested(unknownProperties(item, ['channelId', 'schedules']), { schedules: entries }),
      };
    });
    const storeChannels = this.list(value.storeChannels, `${path}.storeChannels`).map(
      (item, index) => this.text(item, `${path}.storeChannels[${index}]`, { required: true, max: ID_MAX_LENGTH }) ?? '',
    );
    storeChannels.forEach((channelId, index) => {
      if (!channelId) return;
      const first = storeChannels.indexOf(channelId);
      if (first < index) this.problem(`${path}.storeChannels[${index}]`, `duplicate channel "${channelId}" (also storeChannels[${first}])`);
      else if (!channelIds.has(channelId)) this.problem(`${path}.storeChannels[${index}]`, notInRequest(channelId));
    });
    schedulesByChannel.forEach((group, index) => {
      if (group?.channelId && !channelIds.has(group.channelId)) {
        this.problem(`${path}.schedulesByChannel[${index}].channelId`, notInRequest(group.channelId));
      }
    });

    const taxes = this.nested(value.taxesInfo, `${path}.taxesInfo`);
    const contact = this.nested(value.contactInfo, `${path}.contactInfo`);
    const delivery = this.nested(value.deliveryInfo, `${path}.deliveryInfo`);
    const location = this.nested(value.locationInfo, `${path}.locationInfo`);

    const parsed: ParsedStore = {
      storeId: storeId ?? '',
      name: this.text(value.name, `${path}.name`),
      active: this.boolean(value.active, `${path}.active`),
      vendorId: this.integer(value.vendorId, `${path}.vendorId`),
      storeCode: this.text(value.storeCode, `${path}.storeCode`, { max: ID_MAX_LENGTH }),
      services: services.map((service) => ({ name: service?.name ?? '', active: service?.active ?? null })),
      schedules: schedules.filter(isDefined).map(withoutExtra),
      schedulesByChannel: schedulesByChannel.map((group) => ({
        channelId: group?.channelId ?? '',
        schedules: (group?.schedules ?? []).filter(isDefined).map(withoutExtra),
      })),
      taxRate: this.decimal(taxes.taxRate, `${path}.taxesInfo.taxRate`),
      vatRatePercentage: this.decimal(taxes.vatRatePercentage, `${path}.taxesInfo.vatRatePercentage`),
      phone: this.text(contact.phone, `${path}.contactInfo.phone`),
      address: this.text(contact.address, `${path}.contactInfo.address`),
      cookTime: this.cookTime(delivery.cookTime, `${path}.deliveryInfo.cookTime`),
      deliveryId: this.integer(delivery.deliveryId, `${path}.deliveryInfo.deliveryId`),
      minimumOrder: this.decimal(delivery.minimumOrder, `${path}.deliveryInfo.minimumOrder`),
      shippingCost: this.decimal(delivery.shippingCost, `${path}.deliveryInfo.shippingCost`),
      city: this.text(location.city, `${path}.locationInfo.city`),
      latitude: this.coordinate(location.latitude, `${path}.locationInfo.latitude`, 90),
      longitude: this.coordinate(location.longitude, `${path}.locationInfo.longitude`, 180),
      storeChannels,
      extra: withNested(extra, {
        services,
        schedules,
        schedulesByChannel,
        taxesInfo: unknownProperties(taxes, ['taxRate', 'vatRatePercentage']),
        contactInfo: unknownProperties(contact, ['phone', 'address']),
        deliveryInfo: unknownProperties(delivery, ['cookTime', 'deliveryId', 'minimumOrder', 'shippingCost']),
        locationInfo: unknownProperties(location, ['city', 'latitude', 'longitude']),
      }),
    };
    // `fiscalGroupId` is what GET adds; sent back in a request it is ignored (it is not configured here).
    return this.problems.length === before ? parsed : undefined;
  }

  private channel(value: unknown, path: string): ParsedChannel | undefined {
    if (!isObject(value)) {
      this.problem(path, 'must be an object');
      return undefined;
    }
    const before = this.problems.length;
    const info = this.nested(value.additionalInfo, `${path}.additionalInfo`);
    const relatedLists = this.list(info.relatedLists, `${path}.additionalInfo.relatedLists`).map((item, index) => {
      const at = `${path}.additionalInfo.relatedLists[${index}]`;
      if (!isObject(item)) return this.problem(at, 'must be an object');
      return {
        listId: this.text(item.listId, `${at}.listId`, { required: true, max: ID_MAX_LENGTH }) ?? '',
        listName: this.text(item.listName, `${at}.listName`),
        extra: unknownProperties(item, ['listId', 'listName']),
      };
    });
    const parsed: ParsedChannel = {
      channelId: this.text(value.channelId, `${path}.channelId`, { required: true, max: ID_MAX_LENGTH }) ?? '',
      active: this.boolean(value.active, `${path}.active`),
      channel: this.text(value.channel, `${path}.channel`),
      vendorId: this.integer(value.vendorId, `${path}.vendorId`),
      channelReferenceName: this.text(value.channelReferenceName, `${path}.channelReferenceName`),
      mediaId: this.text(info.mediaId, `${path}.additionalInfo.mediaId`),
      mediaName: this.text(info.mediaName, `${path}.additionalInfo.mediaName`),
      relatedLists: relatedLists.map((list) => ({ listId: list?.listId ?? '', listName: list?.listName ?? null })),
      extra: withNested(unknownProperties(value, CHANNEL_KEYS), {
        additionalInfo: withNested(unknownProperties(info, ['mediaId', 'mediaName', 'relatedLists']), { relatedLists }),
      }),
    };
    return this.problems.length === before ? parsed : undefined;
  }

  private schedule(value: unknown, path: string): (ParsedSchedule & { extra: JsonObject }) | undefined {
    if (!isObject(value)) {
      this.problem(path, 'must be an object');
      return undefined;
    }
    const before = this.problems.length;
    let day: ScheduleDay | undefined;
    if (value.day === undefined || value.day === null) this.problem(`${path}.day`, 'is required');
    else if (typeof value.day !== 'string' || !(SCHEDULE_DAYS as readonly string[]).includes(value.day.toUpperCase())) {
      this.problem(`${path}.day`, `must be one of ${SCHEDULE_DAYS.join(', ')} (got ${describe(value.day)})`);
    } else day = value.day.toUpperCase() as ScheduleDay;
    const startTime = this.time(value.startTime, `${path}.startTime`);
    const endTime = this.time(value.endTime, `${path}.endTime`);
    const startDate = this.date(value.startDate, `${path}.startDate`);
    const endDate = this.date(value.endDate, `${path}.endDate`);
    if (day && day !== 'SPECIAL') {
      for (const name of ['startDate', 'endDate'] as const) {
        if (value[name] !== undefined && value[name] !== null) this.problem(`${path}.${name}`, 'is allowed only on SPECIAL entries');
      }
    }
    if (startDate && endDate && endDate < startDate) this.problem(`${path}.endDate`, `must not be before startDate (${startDate})`);
    if (this.problems.length > before || !day || !startTime || !endTime) return undefined;
    return {
      day,
      startTime,
      endTime,
      startDate,
      endDate,
      extra: unknownProperties(value, ['day', 'startTime', 'endTime', 'startDate', 'endDate']),
    };
  }

  /** A nested object (`taxesInfo`, ...): absent or null reads as an empty one. */
  private nested(value: unknown, path: string): Source {
    if (value === undefined || value === null) return {};
    if (isObject(value)) return value;
    this.problem(path, 'must be an object');
    return {};
  }

  private list(value: unknown, path: string, required = false): unknown[] {
    if (value === undefined || value === null) {
      if (required) this.problem(path, 'is required and must be an array');
      return [];
    }
    if (Array.isArray(value)) return value;
    this.problem(path, 'must be an array');
    return [];
  }

  private text(value: unknown, path: string, options: { required?: boolean; max?: number } = {}): string | null {
    if (value === undefined || value === null) {
      if (options.required) this.problem(path, 'is required');
      return null;
    }
    if (typeof value !== 'string') return this.problem(path, `must be a string (got ${describe(value)})`) ?? null;
    if (options.required && value.trim() === '') return this.problem(path, 'must not be empty') ?? null;
    const max = options.max ?? TEXT_MAX_LENGTH;
    if (value.length > max) return this.problem(path, `must be at most ${max} characters`) ?? null;
    return value;
  }

  private boolean(value: unknown, path: string): boolean | null {
    if (value === undefined || value === null) return null;
    if (typeof value === 'boolean') return value;
    return this.problem(path, `must be a boolean (got ${describe(value)})`) ?? null;
  }

  /** A non-negative integer, as a JSON number or numeric text; digit text out. */
  private integer(value: unknown, path: string, required = false): string | null {
    if (value === undefined || value === null) {
      if (required) this.problem(path, 'is required');
      return null;
    }
    const text = integerText(value);
    if (text !== undefined) return text;
    return this.problem(path, `must be a non-negative integer, as a number or numeric text (got ${describe(value)})`) ?? null;
  }

  /** A number >= 0, as a JSON number or decimal text; decimal text out (stored exactly in a numeric column). */
  private decimal(value: unknown, path: string): string | null {
    if (value === undefined || value === null) return null;
    let amount: Decimal | undefined;
    if (typeof value === 'number' && Number.isFinite(value)) amount = new Decimal(value);
    else if (typeof value === 'string' && DECIMAL_TEXT.test(value)) amount = new Decimal(value);
    if (!amount || amount.isNegative()) {
      return this.problem(path, `must be a number >= 0, as a number or decimal text (got ${describe(value)})`) ?? null;
    }
    // Text keeps its scale ("6.50"); a JSON number is written without exponent.
    return typeof value === 'string' ? value.replace(/^\+/, '') : amount.toFixed();
  }

  /** Decimal text within ±limit, kept exactly as sent. */
  private coordinate(value: unknown, path: string, limit: number): string | null {
    if (value === undefined || value === null) return null;
    const inRange = typeof value === 'string' && DECIMAL_TEXT.test(value) && new Decimal(value).abs().lte(limit);
    if (inRange && value.length <= 40) return value;
    return this.problem(path, `must be decimal text from -${limit} to ${limit} (got ${describe(value)})`) ?? null;
  }

  /** The spec says string; the platform sends a number of minutes. Either is kept as text. */
  private cookTime(value: unknown, path: string): string | null {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return String(value);
    if (typeof value === 'number') return this.problem(path, `must be a string or a number >= 0 (got ${describe(value)})`) ?? null;
    return this.text(value, path);
  }

  private time(value: unknown, path: string): string | null {
    if (value === undefined || value === null) return this.problem(path, 'is required') ?? null;
    const match = typeof value === 'string' ? TIME.exec(value) : null;
    if (!match) return this.problem(path, `${TIME_PROBLEM} (got ${describe(value)})`) ?? null;
    return `${match[1]!.padStart(2, '0')}:${match[2]}`;
  }

  private date(value: unknown, path: string): string | null {
    if (value === undefined || value === null) return null;
    if (isIsoDate(value)) return value as string;
    return this.problem(path, `${ISO_DATE_RULE} (got ${describe(value)})`) ?? null;
  }

  private problem(field: string, problem: string): undefined {
    this.problems.push({ field, problem });
    return undefined;
  }
}

function notInRequest(channelId: string): string {
  return `channel "${channelId}" is not in this request's channels`;
}

/** A non-negative safe integer sent as a JSON number or as numeric text, as digit text; undefined otherwise. */
function integerText(value: unknown): string | undefined {
  const number = typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? String(number) : undefined;
}

function isObject(value: unknown): value is Source {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutExtra({ day, startTime, endTime, startDate, endDate }: ParsedSchedule & { extra: JsonObject }): ParsedSchedule {
  return { day, startTime, endTime, startDate, endDate };
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

function unknownProperties(source: Source, known: readonly string[]): JsonObject {
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(source)) if (!known.includes(key)) extra[key] = value as JsonValue;
  return extra;
}

/**
 * Adds to `extra` the unknown properties found inside known nested objects and arrays, under the
 * known key: `{ deliveryInfo: { surge: 1 } }`, `{ services: [{}, { code: "X" }] }` (by position).
 * Nothing is added where nothing unknown was sent.
 */
function withNested(extra: JsonObject, nested: Record<string, JsonObject | Array<{ extra: JsonObject } | undefined>>): JsonObject {
  for (const [key, value] of Object.entries(nested)) {
    if (Array.isArray(value)) {
      const residues = value.map((item) => item?.extra ?? {});
      if (residues.some((residue) => Object.keys(residue).length > 0)) extra[key] = residues;
    } else if (Object.keys(value).length > 0) extra[key] = value;
  }
  return extra;
}
