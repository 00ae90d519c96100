import { PATH_METADATA } from '@nestjs/common/constants.js';
import { registerErrorFamily, type ErrorFamily as Family } from '../errors/error-families.js';
import { documentErrors } from '../openapi/api-errors.decorator.js';

/**
 * The one place a controller's error family (docs/errors.md) is said: errors of its routes, and of
 * unmatched URLs below its path, are answered in that shape, and its `ApiErrors`/`Auth` error
 * responses are documented in it. Written above `@Controller` (decorators apply bottom-up, so the
 * path is known here).
 */
export function ErrorFamily(family: Family): ClassDecorator {
  return (target) => {
    const path = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
    if (path === undefined) throw new Error(`@ErrorFamily must be written above @Controller on ${target.name}`);
    for (const each of Array.isArray(path) ? path : [path]) registerErrorFamily(each, family);
    Reflect.defineMetadata(ERROR_FAMILY, family, target);
    documentErrors(target as unknown as { prototype: object }, family);
  };
}

export const ERROR_FAMILY = 'http:errorFamily';
