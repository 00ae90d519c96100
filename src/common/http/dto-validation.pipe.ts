import { createParamDecorator, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError, type ErrorDetail } from '../errors/api-error.js';
import { flattenValidationErrors, refusePrototypeNamedKey } from './validation.js';

/**
 * Validates a body against a DTO class like the global pipe does, plus checks that
 * class-validator cannot express (e.g. a map keyed by NCM code), and answers one 400
 * listing every problem. Use with a body parameter typed `unknown` so that the
 * global pipe leaves it alone: `@Body(new DtoValidationPipe(Dto, extraChecks))`.
 */
export class DtoValidationPipe<T extends object> implements PipeTransform<unknown, Promise<T>> {
  constructor(
    private readonly dto: ClassConstructor<T>,
    private readonly extraChecks: (plain: Record<string, unknown>) => ErrorDetail[] = () => [],
  ) {}

  async transform(value: unknown): Promise<T> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw ApiError.badRequest('The body must be a JSON object');
    }
    refusePrototypeNamedKey(value);
    const instance = plainToInstance(this.dto, value, { enableImplicitConversion: false });
    const errors = await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
    const details = [...flattenValidationErrors(errors), ...this.extraChecks(value as Record<string, unknown>)];
    if (details.length > 0) throw ApiError.validation(details);
    return instance;
  }
}

const rawBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ body: unknown }>().body,
);

/**
 * The request body validated by `DtoValidationPipe`. A custom parameter decorator, so the
 * global pipe (which would stop at the DTO's own errors) leaves it to this one.
 */
export function ValidatedBody<T extends object>(dto: ClassConstructor<T>, extraChecks?: (plain: Record<string, unknown>) => ErrorDetail[]) {
  return rawBody(new DtoValidationPipe(dto, extraChecks));
}
