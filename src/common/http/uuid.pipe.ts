import { type PipeTransform } from '@nestjs/common';
import { ApiError } from '../errors/api-error.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A path id that is not a UUID is a client mistake (400), not a missing resource. */
export class UuidPipe implements PipeTransform<string, string> {
  constructor(private readonly name = 'id') {}

  transform(value: string): string {
    if (!isUuid(value)) throw ApiError.badRequest(`${this.name} must be a UUID`, this.name);
    return value.toLowerCase();
  }
}
