import { ValidateIf } from 'class-validator';

/**
 * The property may be left out, but not sent as null: its other checks then refuse it by name. For a partial
 * update of a value that cannot be cleared, where `@IsOptional()` would let null through to a NOT NULL column
 * (a 500) or have it ignored without a word.
 */
export function OptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
