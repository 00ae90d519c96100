import { ValidateBy, type ValidationOptions } from 'class-validator';
import { idText } from '../../common/id-text.js';
import { ISO_DATE_OR_DATE_TIME_RULE, readIsoInstant } from '../../common/iso-date-time.js';
import { isPlainObject } from '../../common/plain-object.js';

/** The text a validated id is compared as. */
export function idString(value: string | number): string {
  return idText(value) ?? String(value);
}

/** A latitude or longitude as decimal text or a number, within ±limit. */
export function IsCoordinate(limit: 90 | 180, options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isCoordinate',
      validator: {
        validate: (value: unknown) => {
          if (typeof value === 'string' && !/^[+-]?\d{1,3}(\.\d{1,15})?$/.test(value.trim())) return false;
          const number = typeof value === 'string' ? Number(value) : value;
          return typeof number === 'number' && Number.isFinite(number) && Math.abs(number) <= limit;
        },
        defaultMessage: () => `$property must be a decimal number from -${limit} to ${limit} (text or number)`,
      },
    },
    options,
  );
}

/** A JSON object or a non-empty text (an address as the point of sale has it). */
export function IsAddress(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isAddress',
      validator: {
        validate: (value: unknown) =>
          (typeof value === 'string' && value.trim().length > 0 && value.length <= 1000) || isPlainObject(value),
        defaultMessage: () => '$property must be an object or a non-empty text of at most 1000 characters',
      },
    },
    options,
  );
}

/** An ISO 8601 date or date-time (the service's one grammar: see `readIsoInstant`). */
export function IsIsoDateText(options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isIsoDateText',
      validator: {
        validate: (value: unknown) => readIsoInstant(value) !== undefined,
        defaultMessage: () => `$property ${ISO_DATE_OR_DATE_TIME_RULE}`,
      },
    },
    options,
  );
}
