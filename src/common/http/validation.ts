import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError, type ErrorDetail } from '../errors/api-error.js';

/** class-validator errors, nested ones included, as one list of `{ field, problem }`. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const problem of Object.values(error.constraints ?? {})) {
      const withoutName = problem.startsWith(`${error.property} `) ? problem.slice(error.property.length + 1) : problem;
      details.push({ field, problem: withoutName });
    }
    if (error.children?.length) details.push(...flattenValidationErrors(error.children, field));
  }
  return details;
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
  });
}
