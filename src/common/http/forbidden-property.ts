import { registerDecorator, type ValidationOptions } from 'class-validator';

/** The property may not appear in the body at all (e.g. an id that lives in the path). */
export function ForbiddenProperty(message: string, options: ValidationOptions = {}) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'forbiddenProperty',
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value: unknown) => value === undefined },
    });
}
