import { Decimal } from 'decimal.js';
import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import type { ErrorDetail } from '../../common/errors/api-error.js';
import { isPlainObject } from '../../common/plain-object.js';
import { ISO_DATE_RULE, isIsoDate } from '../../common/iso-date-time.js';
import { SCHEDULE_DAYS, type ScheduleDay } from '../channels-stores.types.js';

/*
 * The rules of a `POST /v3/channels-stores` body that class-validator has no
 * decorator for, and the checks across the items of the request. Problems name the value sent
 * ("must be a boolean (got "true")"): the platform's sync service logs them.
 */

export const ID_MAX_LENGTH = 100;
export const TEXT_MAX_LENGTH = 1000;
const INTEGER_TEXT = /^\d{1,16}$/;
const DECIMAL_TEXT = /^[+-]?(\d{1,30}(\.\d{0,30})?|\.\d{1,30})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The value sent, briefly, for a problem: `"24:00"`, `-1`, `an object`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** A message naming the value sent: `must be a string (got 123)`. */
export function got(problem: string): (args?: ValidationArguments) => string {
  return (args) => `${problem} (got ${describe(args?.value)})`;
}

/** A non-negative safe integer sent as a JSON number or as numeric text, as digit text (`"007"` is `7`); undefined otherwise. */
export function integerText(value: unknown): string | undefined {
  const number = typeof value === 'string' && INTEGER_TEXT.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? String(number) : undefined;
}

/** A number >= 0 sent as a JSON number or as decimal text, as decimal text (text keeps its scale, `"6.50"`); undefined otherwise. */
export function decimalText(value: unknown): string | undefined {
  let amount: Decimal | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) amount = new Decimal(value);
  else if (typeof value === 'string' && DECIMAL_TEXT.test(value)) amount = new Decimal(value);
  if (!amount || amount.isNegative()) return undefined;
  // A JSON number is written without exponent.
  return typeof value === 'string' ? value.replace(/^\+/, '') : amount.toFixed();
}

/** An integer >= 0, as a JSON number or numeric text (stored in a bigint column). */
export function IsIntegerText(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isIntegerText',
      validator: {
        validate: (value) => integerText(value) !== undefined,
        defaultMessage: got('must be a non-negative integer, as a number or numeric text'),
      },
    },
    options,
  );
}

/** A number >= 0, as a JSON number or decimal text (stored exactly in a numeric column). */
export function IsDecimalText(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isDecimalText',
      validator: {
        validate: (value) => decimalText(value) !== undefined,
        defaultMessage: got('must be a number >= 0, as a number or decimal text'),
      },
    },
    options,
  );
}

/** Decimal text within ±limit, kept exactly as sent. */
export function IsCoordinateText(limit: 90 | 180, options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isCoordinateText',
      constraints: [limit],
      validator: {
        validate: (value) =>
          typeof value === 'string' && value.length <= 40 && DECIMAL_TEXT.test(value) && new Decimal(value).abs().lte(limit),
        defaultMessage: got(`must be decimal text from -${limit} to ${limit}`),
      },
    },
    options,
  );
}

/** The spec says string; the platform sends a number of minutes. Either is kept as text. */
export function IsCookTime(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isCookTime',
      validator: {
        validate: (value) =>
          typeof value === 'number' ? Number.isFinite(value) && value >= 0 : typeof value === 'string' && value.length <= TEXT_MAX_LENGTH,
        defaultMessage: (args) =>
          typeof args?.value === 'number'
            ? got('must be a string or a number >= 0')(args)
            : typeof args?.value === 'string'
              ? `must be at most ${TEXT_MAX_LENGTH} characters`
              : got('must be a string')(args),
      },
    },
    options,
  );
}

/** A week day or `SPECIAL`, any case. */
export function IsScheduleDay(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isScheduleDay',
      validator: {
        validate: (value) => scheduleDay(value) !== undefined,
        defaultMessage: got(`must be one of ${SCHEDULE_DAYS.join(', ')}`),
      },
    },
    options,
  );
}

/** The day, upper-case, when it is one. */
export function scheduleDay(value: unknown): ScheduleDay | undefined {
  const day = typeof value === 'string' ? value.toUpperCase() : undefined;
  return (SCHEDULE_DAYS as readonly unknown[]).includes(day) ? (day as ScheduleDay) : undefined;
}

/** A calendar date `YYYY-MM-DD` that exists (not 2025-02-30). */
export function IsCalendarDate(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        // The one date grammar of every route (common/iso-date-time.ts).
        validate: (value) => isIsoDate(value),
        defaultMessage: got(ISO_DATE_RULE),
      },
    },
    options,
  );
}

/** A schedule's dates belong to `SPECIAL` entries (checked once the day is valid). */
export function OnlyOnSpecialDays(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'onlyOnSpecialDays',
      validator: {
        validate: (_value, args) => {
          const day = scheduleDay((args?.object as { day?: unknown }).day);
          return day === undefined || day === 'SPECIAL';
        },
        defaultMessage: () => 'is allowed only on SPECIAL entries',
      },
    },
    options,
  );
}

/** `endDate` is not before `startDate` (both valid dates: the text compares like the date). */
export function NotBeforeStartDate(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'notBeforeStartDate',
      validator: {
        validate: (value, args) => {
          const start = (args?.object as { startDate?: unknown }).startDate;
          return typeof start !== 'string' || !DATE.test(start) || (value as string) >= start;
        },
        defaultMessage: (args) => `must not be before startDate (${(args?.object as { startDate: string }).startDate})`,
      },
    },
    options,
  );
}

/**
 * The checks across the items of a request, each problem on the item it is about (which
 * class-validator cannot do): `storeId` and `channelId` unique; every `storeChannels` entry
 * (an id, once per store) and every `schedulesByChannel[].channelId` names a channel of the
 * request. A channel sent with another problem is still a valid reference.
 */
export function channelsStoresCrossChecks(plain: Record<string, unknown>): ErrorDetail[] {
  const channels = Array.isArray(plain.channels) ? plain.channels : [];
  const stores = Array.isArray(plain.stores) ? plain.stores : [];
  const channelIds = channels.map((item) => (isPlainObject(item) && typeof item.channelId === 'string' ? item.channelId : undefined));
  const problems = [
    ...duplicates(channelIds, 'channels', 'channelId', (id) => `"${id}"`),
    ...duplicates(
      stores.map((item) => (isPlainObject(item) ? integerText(item.storeId) : undefined)),
      'stores',
      'storeId',
      (id) => id,
    ),
  ];
  const sent = new Set(channelIds.filter((id) => id !== undefined));
  stores.forEach((store, index) => {
    if (isPlainObject(store)) problems.push(...channelReferenceProblems(store, `stores[${index}]`, sent));
  });
  return problems;
}

function duplicates(ids: Array<string | undefined>, list: string, field: string, show: (id: string) => string): ErrorDetail[] {
  const first = new Map<string, number>();
  const problems: ErrorDetail[] = [];
  ids.forEach((id, index) => {
    if (id === undefined) return;
    const earlier = first.get(id);
    if (earlier === undefined) first.set(id, index);
    else problems.push({ field: `${list}[${index}].${field}`, problem: `duplicate ${field} ${show(id)} (also ${list}[${earlier}])` });
  });
  return problems;
}

function channelReferenceProblems(store: Record<string, unknown>, path: string, sent: Set<string>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (Array.isArray(store.storeChannels)) {
    const seen = new Map<string, number>();
    store.storeChannels.forEach((channelId: unknown, index) => {
      const field = `${path}.storeChannels[${index}]`;
      const problem = channelIdProblem(channelId);
      if (problem) return problems.push({ field, problem });
      const id = channelId as string;
      const earlier = seen.get(id);
      if (earlier !== undefined) problems.push({ field, problem: `duplicate channel "${id}" (also storeChannels[${earlier}])` });
      else if (!sent.has(id)) problems.push({ field, problem: notInRequest(id) });
      if (earlier === undefined) seen.set(id, index);
    });
  }
  if (Array.isArray(store.schedulesByChannel)) {
    store.schedulesByChannel.forEach((group: unknown, index) => {
      const channelId = isPlainObject(group) ? group.channelId : undefined;
      if (channelIdProblem(channelId) === undefined && !sent.has(channelId as string)) {
        problems.push({ field: `${path}.schedulesByChannel[${index}].channelId`, problem: notInRequest(channelId as string) });
      }
    });
  }
  return problems;
}

/** The problem of a channel id in a list of ids (the DTO checks the ids that are properties). */
function channelIdProblem(value: unknown): string | undefined {
  if (value === undefined || value === null) return 'is required';
  if (typeof value !== 'string') return `must be a string (got ${describe(value)})`;
  if (value.trim() === '') return 'must not be empty';
  if (value.length > ID_MAX_LENGTH) return `must be at most ${ID_MAX_LENGTH} characters`;
  return undefined;
}

function notInRequest(channelId: string): string {
  return `channel "${channelId}" is not in this request's channels`;
}
