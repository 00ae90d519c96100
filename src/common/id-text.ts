import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';

/**
 * The text an id is compared and stored as. Point-of-sale systems and the platform send ids as
 * strings or as JSON numbers (they send either), so an id is either a string that is not blank,
 * kept as sent (not trimmed: ids are compared exactly), or a non-negative safe integer, written in
 * decimal. Anything else (a blank string, a negative or fractional number, an object) is not an id.
 * Length limits are the caller's.
 */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return NOT_BLANK.test(value) ? value : undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}

const NOT_BLANK = /\S/;

/** The longest id the API accepts (order ids, product ids, store ids...). */
export const MAX_ID_LENGTH = 100;

/** An id (see `idText`), as text of at most `maxLength` characters when one is given. */
export function IsIdText(maxLength?: number, options: ValidationOptions = {}) {
  return ValidateBy(
    {
      name: 'isIdText',
      constraints: [maxLength],
      validator: {
        validate: (value: unknown) => {
          const text = idText(value);
          return text !== undefined && (maxLength === undefined || text.length <= maxLength);
        },
        defaultMessage: ({ value }: ValidationArguments) =>
          idText(value) === undefined
            ? '$property must be a non-empty string or a non-negative integer'
            : `$property must have at most ${maxLength} characters`,
      },
    },
    options,
  );
}
