import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ERROR_FAMILY_METADATA, type ErrorFamily } from '../errors/error-families.js';
import { documentErrors } from '../openapi/api-errors.decorator.js';

/**
 * The one place a controller's error family is said, `@ErrorBodies(ErrorFamily.AdminApi)`: errors
 * of its routes, and of unmatched URLs below its path, are answered in that family's body shape
 * (`ErrorFamilyRoutes` reads this metadata when the app is built), and its `ApiErrors`/`Auth` error
 * responses are documented in it. Written above `@Controller` (decorators apply bottom-up, so the
 * path is known here).
 */
export function ErrorBodies(family: ErrorFamily): ClassDecorator {
  return (target) => {
    if (Reflect.getMetadata(PATH_METADATA, target) === undefined) {
      throw new Error(`@ErrorBodies must be written above @Controller on ${target.name}`);
    }
    Reflect.defineMetadata(ERROR_FAMILY_METADATA, family, target);
    documentErrors(target as unknown as { prototype: object }, family);
  };
}
