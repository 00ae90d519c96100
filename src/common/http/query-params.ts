import { ValidateBy } from 'class-validator';
import { FILTER_RANGE_RULE, ISO_DATE_TIME_RULE, isIsoDateTime, withinFilterRange } from '../iso-date-time.js';

/** Largest page number and count accepted in a query (PostgreSQL integer). */
export const MAX_INTEGER_PARAM = 2_147_483_647;

/**
 * Query text to a number only when it is written as a plain integer (`12`, `-1`): `1.5`,
 * `1e3`, `0x10`, ` 7` or an empty value stay text and fail `@IsInt` (a 400), instead of
 * being read as some other number.
 */
export function plainInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}

/** A date-time of the one grammar every route reads (`src/common/iso-date-time.ts`). */
export function IsIsoDateTime() {
  return ValidateBy({
    name: 'isIsoDateTime',
    validator: { validate: (value: unknown) => isIsoDateTime(value), defaultMessage: () => ISO_DATE_TIME_RULE },
  });
}

/** A date filter's instant within the range every bound of it can be computed in (a day after it still has a year below 10000). */
export function WithinFilterRange() {
  return ValidateBy({
    name: 'withinFilterRange',
    validator: { validate: (value: unknown) => withinFilterRange(value), defaultMessage: () => FILTER_RANGE_RULE },
  });
}
