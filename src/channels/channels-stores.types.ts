export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const WEEK_DAYS = ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'] as const;
/** The seven week days, and `SPECIAL`: a dated exception (optional `startDate`/`endDate`). */
export const SCHEDULE_DAYS = [...WEEK_DAYS, 'SPECIAL'] as const;
export type ScheduleDay = (typeof SCHEDULE_DAYS)[number];

/** A schedule entry after validation: day upper-case, times `HH:MM`, dates `YYYY-MM-DD`. */
export interface ParsedSchedule {
  day: ScheduleDay;
  startTime: string;
  endTime: string;
  startDate: string | null;
  endDate: string | null;
}

/**
 * A store after validation. Integers are decimal digit text (bigint columns), decimals are
 * decimal text (numeric columns); absent and null fields are null.
 */
export interface ParsedStore {
  storeId: string;
  name: string | null;
  active: boolean | null;
  vendorId: string | null;
  storeCode: string | null;
  services: Array<{ name: string; active: boolean | null }>;
  schedules: ParsedSchedule[];
  schedulesByChannel: Array<{ channelId: string; schedules: ParsedSchedule[] }>;
  taxRate: string | null;
  vatRatePercentage: string | null;
  phone: string | null;
  address: string | null;
  cookTime: string | null;
  deliveryId: string | null;
  minimumOrder: string | null;
  shippingCost: string | null;
  city: string | null;
  latitude: string | null;
  longitude: string | null;
  storeChannels: string[];
  /** The sent properties the spec does not list, as a tree mirroring the sent store. */
  extra: JsonObject;
}

export interface ParsedChannel {
  channelId: string;
  active: boolean | null;
  channel: string | null;
  vendorId: string | null;
  channelReferenceName: string | null;
  mediaId: string | null;
  mediaName: string | null;
  relatedLists: Array<{ listId: string; listName: string | null }>;
  extra: JsonObject;
}

export interface ParsedConfiguration {
  stores: ParsedStore[];
  channels: ParsedChannel[];
  /** Top-level properties besides `stores` and `channels` (the platform sends `vendorId`). */
  extra: JsonObject;
}
